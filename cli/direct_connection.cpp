#include "direct_connection.hpp"

namespace dlock_cli {

dlock::ClientConfig direct_connection_config(const std::string& url) {
  dlock::ClientConfig config = dlock::config_from_options(nullptr);
  dlock::apply_url(url, config);
  return config;
}

}  // namespace dlock_cli
