#include "backends/zookeeper/zk_url.hpp"

#include <cstddef>

#include "common/error.hpp"
#include "common/percent_decode.hpp"
#include "common/url_query.hpp"

namespace dlock {
namespace zk {
namespace {

constexpr const char* scheme = "zookeeper://";
constexpr int64_t day_ms = 24LL * 3600 * 1000;
constexpr int default_session_timeout_ms = 10000;

// "h1:p1,h2" -> "h1:p1,h2:2181", each host checked.
std::string host_list(const std::string& hosts) {
  if (hosts.empty()) throw InvalidArgument("url: no host in the zookeeper:// url");
  std::string list;
  std::size_t start = 0;
  while (start <= hosts.size()) {
    const std::size_t end = std::min(hosts.find(',', start), hosts.size());
    const std::string host = hosts.substr(start, end - start);
    start = end + 1;
    const std::size_t colon = host.rfind(':');
    const bool bracketed = !host.empty() && host.back() == ']';
    if (host.empty() || colon == 0) throw InvalidArgument("url: empty host in " + quote_url_part(hosts));
    if (!list.empty()) list += ',';
    if (colon == std::string::npos || bracketed) {
      list += host + ":2181";
    } else {
      url_integer(host.substr(colon + 1), 1, 65535, "port of " + host.substr(0, colon));
      list += host;
    }
  }
  return list;
}

void apply_option(ZkUrl& parsed, const std::string& key, const std::string& value) {
  if (key == "session_timeout_ms") {
    parsed.session.session_timeout_ms = static_cast<int>(url_integer(value, 100, 3600 * 1000, key));
  } else if (key == "connect_timeout_ms") {
    parsed.connect_timeout_ms = url_integer(value, 1, day_ms, key);
  } else if (key == "command_timeout_ms") {
    parsed.command_timeout_ms = url_integer(value, 1, day_ms, key);
  } else if (key == "auth") {
    const std::string decoded = percent_decode(value, "auth");
    constexpr const char* digest = "digest:";
    if (decoded.rfind(digest, 0) != 0 || decoded.find(':', 7) == std::string::npos) {
      throw InvalidArgument("url: auth must be digest:user:password");
    }
    parsed.session.digest_credentials = decoded.substr(7);
  } else {
    throw InvalidArgument("url: unknown query option " + quote_url_part(key) + " in a zookeeper:// url");
  }
}

}  // namespace

std::string ZkUrl::server() const {
  return scheme + session.hosts;
}

ZkUrl parse_zk_url(const std::string& url) {
  if (url.rfind(scheme, 0) != 0) throw InvalidArgument("url: not a zookeeper:// url");
  std::string rest = url.substr(std::char_traits<char>::length(scheme));
  const std::size_t query_start = rest.find('?');
  const std::string query = query_start == std::string::npos ? "" : rest.substr(query_start + 1);
  rest = rest.substr(0, query_start);
  if (rest.find('@') != std::string::npos) {
    throw InvalidArgument("url: a zookeeper:// url takes its credentials as auth=digest:user:password");
  }
  const std::size_t slash = rest.find('/');
  ZkUrl parsed;
  parsed.session.session_timeout_ms = default_session_timeout_ms;
  parsed.session.hosts = host_list(rest.substr(0, slash));
  if (slash != std::string::npos && slash + 1 < rest.size()) {
    parsed.session.hosts += percent_decode(rest.substr(slash), "chroot");
  }
  for (const QueryOption& option : query_options(query)) apply_option(parsed, option.key, option.value);
  return parsed;
}

}  // namespace zk
}  // namespace dlock
