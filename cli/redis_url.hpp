// Where the URL given to dlock points, for the command's own hiredis
// connection. Accepts the forms dlock_client_open() does; query options other
// than db are the library's timeouts and are ignored here.
#pragma once

#include <string>

namespace dlock_cli {

struct RedisAddress {
  std::string host;         // empty for a Unix socket
  int port = 6379;
  std::string socket_path;  // set for unix://
  std::string user;
  std::string password;
  int db = 0;
};

RedisAddress parse_redis_url(const std::string& url);

}  // namespace dlock_cli
