#include "server_link.hpp"

#include <chrono>
#include <stdexcept>

namespace dlock_bench {

RedisConnection connect(const dlock::ClientConfig& server) {
  const std::chrono::milliseconds timeout(server.connect_timeout_ms);
  RedisConnection connection = server.transport == dlock::ClientConfig::Transport::unix_socket
                                   ? RedisConnection::unix_socket(server.socket_path, timeout)
                               : server.tls.enabled
                                   ? RedisConnection::tls(server.host, server.port, timeout, server.tls.ca,
                                                          server.tls.cert, server.tls.key)
                                   : RedisConnection::tcp(server.host, server.port, timeout);
  if (!server.password.empty()) {
    if (server.user.empty()) {
      checked(connection, {"AUTH", server.password});
    } else {
      checked(connection, {"AUTH", server.user, server.password});
    }
  }
  if (server.db != 0) checked(connection, {"SELECT", std::to_string(server.db)});
  return connection;
}

RedisReply checked(RedisConnection& connection, const std::vector<std::string>& argv) {
  RedisReply reply = connection.command(argv);
  if (reply.is_error()) throw std::runtime_error(argv.front() + ": " + reply.str);
  return reply;
}

InfoFields info(RedisConnection& connection, const std::string& section) {
  return dlock_test::parse_info(checked(connection, {"INFO", section}).str);
}

}  // namespace dlock_bench
