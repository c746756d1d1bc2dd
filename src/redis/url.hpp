// Client settings: the options struct's fields, then the URL that names the
// server, whose query options override them.
#pragma once

#include <cstdint>
#include <string>

#include "dlock.h"

namespace dlock {

struct ClientConfig {
  enum class Transport { tcp, unix_socket };

  Transport transport = Transport::tcp;
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string socket_path;
  std::string user;
  std::string password;
  int db = 0;
  int64_t connect_timeout_ms = 2000;
  int64_t command_timeout_ms = 3000;
  int64_t watchdog_timeout_ms = 30000;
  int32_t pool_size = 8;

  // Where the server is, for messages: never includes the password.
  std::string describe() const;
};

// Copies the first opts->size bytes' worth of fields over the defaults.
ClientConfig config_from_options(const dlock_client_options* opts);

// Parses redis://[user[:password]@]host[:port][/db][?k=v&...] or
// unix:///path[?db=N&k=v...] into `config`. Throws InvalidArgument naming the
// part that is wrong, UnsupportedError for rediss://.
void apply_url(const std::string& url, ClientConfig& config);

}  // namespace dlock
