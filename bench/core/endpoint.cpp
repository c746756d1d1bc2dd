#include "endpoint.hpp"

#include <stdexcept>

namespace dlock_bench {

Endpoint Endpoint::from_url(const std::string& url) {
  const std::string scheme = "redis://";
  if (url.rfind(scheme, 0) != 0) {
    throw std::invalid_argument("--url: only redis:// URLs are supported by the benchmark, not '" + url +
                                "'");
  }
  std::string rest = url.substr(scheme.size());
  rest = rest.substr(0, rest.find('?'));
  Endpoint endpoint;
  if (const std::size_t at = rest.rfind('@'); at != std::string::npos) {
    const std::string credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const std::size_t colon = credentials.find(':');
    endpoint.user = credentials.substr(0, colon);
    if (colon != std::string::npos) endpoint.password = credentials.substr(colon + 1);
  }
  if (const std::size_t slash = rest.find('/'); slash != std::string::npos) {
    if (slash + 1 < rest.size()) endpoint.db = std::stoi(rest.substr(slash + 1));
    rest = rest.substr(0, slash);
  }
  if (const std::size_t colon = rest.rfind(':'); colon != std::string::npos) {
    endpoint.port = std::stoi(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
  }
  if (!rest.empty()) endpoint.host = rest;
  return endpoint;
}

std::string Endpoint::loopback_url(int port) {
  return "redis://127.0.0.1:" + std::to_string(port);
}

}  // namespace dlock_bench
