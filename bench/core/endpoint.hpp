// Where the Redis server is, for the benchmark's own hiredis connections.
#pragma once

#include <string>

namespace dlock_bench {

struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;
  std::string password;
  int db = 0;

  // Parses redis://[user[:password]@]host[:port][/db][?options]; options are
  // dlock's and ignored here. Throws std::invalid_argument otherwise.
  static Endpoint from_url(const std::string& url);
  // The URL dlock_client_open() gets for a local server on `port`.
  static std::string loopback_url(int port);
};

}  // namespace dlock_bench
