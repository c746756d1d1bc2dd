#include "redis_url.hpp"

#include <cstdlib>

#include "failure.hpp"

namespace dlock_cli {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(const std::string& text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      decoded += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

void apply_query(const std::string& query, RedisAddress& address) {
  std::size_t start = 0;
  while (start < query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string pair = query.substr(start, end - start);
    if (pair.compare(0, 3, "db=") == 0) address.db = std::atoi(pair.c_str() + 3);
    start = end + 1;
  }
}

}  // namespace

RedisAddress parse_redis_url(const std::string& url) {
  RedisAddress address;
  std::string rest;
  const std::size_t query_start = url.find('?');
  const std::string without_query = url.substr(0, query_start);
  if (without_query.compare(0, 7, "unix://") == 0) {
    address.socket_path = percent_decode(without_query.substr(7));
  } else if (without_query.compare(0, 8, "redis://") == 0) {
    rest = without_query.substr(8);
    const std::size_t at = rest.rfind('@');
    if (at != std::string::npos) {
      const std::string userinfo = rest.substr(0, at);
      // As the library reads it: "secret@" is a password, "user:secret@" both.
      const std::size_t colon = userinfo.find(':');
      if (colon == std::string::npos) {
        address.password = percent_decode(userinfo);
      } else {
        address.user = percent_decode(userinfo.substr(0, colon));
        address.password = percent_decode(userinfo.substr(colon + 1));
      }
      rest = rest.substr(at + 1);
    }
    const std::size_t slash = rest.find('/');
    if (slash != std::string::npos) {
      if (slash + 1 < rest.size()) address.db = std::atoi(rest.c_str() + slash + 1);
      rest = rest.substr(0, slash);
    }
    // host, host:port, [v6], [v6]:port
    const std::size_t bracket = rest.find(']');
    const std::size_t port_colon =
        rest.find(':', bracket == std::string::npos ? 0 : bracket);
    if (port_colon != std::string::npos) {
      address.port = std::atoi(rest.c_str() + port_colon + 1);
      rest = rest.substr(0, port_colon);
    }
    if (!rest.empty() && rest.front() == '[') rest = rest.substr(1, rest.size() - 2);
    address.host = rest.empty() ? "127.0.0.1" : rest;
  } else {
    throw Failure(exit_code::usage, "url: only redis:// and unix:// URLs are supported here");
  }
  if (query_start != std::string::npos) apply_query(url.substr(query_start + 1), address);
  return address;
}

}  // namespace dlock_cli
