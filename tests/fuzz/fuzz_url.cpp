// Fuzz target: the URL parser. Any input must end in a config or an
// InvalidArgument/UnsupportedError; an accepted URL must leave a usable config
// whose description never shows the password. No connection is ever made.
#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/redis/net/url.hpp"
#include "common/error.hpp"
#include "fuzz_require.hpp"

namespace {

// The password must not influence describe() at all; comparing against a
// description made with another password avoids false alarms from passwords
// that happen to be substrings of the host or port.
bool description_hides_password(const dlock::ClientConfig& config) {
  dlock::ClientConfig other = config;
  other.password = config.password + "#other";
  other.sentinel.password = config.sentinel.password + "#other";
  return config.describe() == other.describe();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string url(reinterpret_cast<const char*>(data), size);
  dlock::ClientConfig config;
  try {
    dlock::apply_url(url, config);
  } catch (const dlock::InvalidArgument&) {
    return 0;
  } catch (const dlock::UnsupportedError&) {
    return 0;
  }
  using dlock_fuzz::require;
  using Transport = dlock::ClientConfig::Transport;
  if (config.transport == Transport::tcp) {
    require(config.port >= 1 && config.port <= 65535, "tcp port in 1..65535", url);
    require(!config.host.empty(), "tcp host not empty", url);
  } else {
    require(!config.socket_path.empty(), "unix socket path not empty", url);
  }
  require(config.db >= 0, "db not negative", url);
  require(config.connect_timeout_ms > 0 && config.command_timeout_ms > 0 && config.watchdog_timeout_ms > 0,
          "timeouts positive", url);
  require(config.pool_size >= 1, "pool size at least 1", url);
  require(config.tls.first_option_set() == nullptr || config.tls.enabled, "tls_* options only with rediss://",
          url);
  require(config.tls.enabled == (url.rfind("rediss://", 0) == 0 || url.rfind("rediss-sentinel://", 0) == 0),
          "TLS exactly for rediss:// and rediss-sentinel://", url);
  if (config.sentinel.enabled()) {
    require(!config.sentinel.master_name.empty(), "a sentinel url names its master", url);
    for (const auto& sentinel : config.sentinel.sentinels) {
      require(!sentinel.host.empty() && sentinel.port >= 1 && sentinel.port <= 65535, "sentinel host:port",
              url);
    }
  }
  require(config.sync_replicas >= 0, "sync_replicas not negative", url);
  require(!config.tls_context, "parsing loads no TLS files", url);
  require(description_hides_password(config), "describe() does not show the password", url);
  return 0;
}
