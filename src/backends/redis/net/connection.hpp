// One blocking hiredis connection, authenticated and on its database, with
// RAII ownership of the context and of every reply.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/redis/net/reply.hpp"
#include "backends/redis/net/url.hpp"

struct redisContext;

namespace dlock {

using Argv = std::vector<std::string_view>;

class Connection {
 public:
  // Connects, then runs AUTH and SELECT as the config says, by `deadline`
  // at the latest. Throws ConnectionError (PermanentConnectionError when
  // retrying cannot help), AuthError or ProtocolError.
  explicit Connection(const ClientConfig& config, std::chrono::steady_clock::time_point deadline =
                                                      std::chrono::steady_clock::time_point::max());
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Sends one command and reads its reply (which may be an error reply).
  // Throws ConnectionError on I/O failure or timeout; the connection is then
  // broken and must be dropped.
  Reply command(const Argv& argv);

  // Pipelining: queue commands, then read their replies in order.
  void append(const Argv& argv);
  Reply read_reply();

  // Event-loop use (the subscriber): send what append() queued without
  // waiting for replies; read once from a socket that poll() found readable;
  // take the next whole reply already read (nullptr when there is none).
  void flush();
  void read_socket();
  Reply next_buffered_reply();  // an empty Reply when there is none
  int fd() const;

  bool broken() const { return broken_; }
  // An idle connection (no reply outstanding) whose socket shows the
  // server's end of it: a restart, CLIENT KILL or the server's idle timeout
  // closed it. Costs one non-blocking peek. A TLS close that left its alert
  // unread is not seen here; the next command finds it.
  bool closed_by_server() const;
  // Why it broke, for messages (names the server, never the password).
  const std::string& failure() const { return failure_; }

  // Sentinel: the master generation this connection was made for (0 for
  // other deployments); see MasterLocator.
  uint64_t generation() const { return generation_; }
  void set_generation(uint64_t generation) { generation_ = generation; }
  // A reply said READONLY: the server is a replica now (a demoted master).
  bool demoted() const { return demoted_; }

  // Cluster, after an ASK: each command is sent after an ASKING, which lets
  // the node importing a slot serve it once.
  void set_asking(bool asking) { asking_ = asking; }
  // Cluster on Redis/Valkey >= 7: scripts publish with SPUBLISH (see Script).
  bool sharded_pubsub() const { return sharded_pubsub_; }
  void set_sharded_pubsub(bool sharded) { sharded_pubsub_ = sharded; }

  // Bounds each later read and write (the command timeout by default).
  void set_timeout(std::chrono::milliseconds timeout);

 private:
  [[noreturn]] void fail(const std::string& what);  // marks the connection broken, records why
  [[noreturn]] void throw_failure(const std::string& what) const;

  std::unique_ptr<redisContext, void (*)(redisContext*)> context_;
  std::string where_;
  ClientConfig config_;   // to probe the server again when it drops a fresh connection
  bool replied_ = false;  // the server has answered on this connection
  bool broken_ = false;
  bool unflushed_ = false;  // append() queued what flush() has not written
  bool demoted_ = false;
  bool asking_ = false;
  bool sharded_pubsub_ = false;
  uint64_t generation_ = 0;
  std::string failure_;
};

// Bounds a connection's reads and writes by `deadline` for as long as it
// lives, then gives it back its `usual` timeout: a retry or a batch gets only
// the time it has left.
class TimeLimit {
 public:
  TimeLimit(Connection& connection, std::chrono::steady_clock::time_point deadline,
            std::chrono::milliseconds usual);
  ~TimeLimit();
  TimeLimit(const TimeLimit&) = delete;
  TimeLimit& operator=(const TimeLimit&) = delete;

 private:
  Connection& connection_;
  std::chrono::milliseconds usual_;
};

}  // namespace dlock
