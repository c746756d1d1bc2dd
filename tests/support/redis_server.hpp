#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "redis_connection.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

// TLS only: the server listens on a TLS port and no plain one.
// $DLOCK_TEST_REDIS_SERVER (e.g. valkey-server), else `redis-server` on PATH.
std::string test_server_binary();

struct RedisServerTls {
  std::string cert_file;
  std::string key_file;
  std::string ca_file;              // trusted for client certificates; admin connections trust it too
  std::string auth_clients = "no";  // tls-auth-clients: yes, optional or no
  // The certificate admin connections present (needed with auth_clients yes).
  std::string client_cert_file;
  std::string client_key_file;
};

struct RedisServerConfig {
  // The redis-server binary; empty: $DLOCK_TEST_REDIS_SERVER, else `redis-server` on PATH.
  std::string executable;
  // redis.conf lines after the defaults (later lines win), e.g. "appendonly yes",
  // "enable-debug-command local", "requirepass pw", "user alice on >pw ~* &* +@all".
  std::vector<std::string> extra_lines;
  // Also listen on <dir>/redis.sock.
  bool unix_socket = false;
  // Credentials command() authenticates with; no AUTH when the password is empty.
  std::string admin_user = "default";
  std::string admin_password;
  // When set, TLS only (url() is rediss://, admin connections use TLS).
  std::optional<RedisServerTls> tls;
  // Chooses the port to try (again after a failed start); empty: pick_free_port().
  // A cluster node needs its bus port (+10000) free as well.
  std::function<int()> pick_port;
};

// A loopback port nothing listens on, this process's until it exits: no other
// test process takes it, even while a server on it is killed (port_claims.hpp).
int pick_free_port();

// A private redis-server (see RedisServerConfig::executable) on a free loopback port with its own directory,
// stopped on destruction.
class RedisServer {
 public:
  explicit RedisServer(RedisServerConfig config = {});
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  std::string url() const;  // redis://127.0.0.1:<port> (rediss:// with TLS)
  std::string socket_path() const { return dir_.file("redis.sock"); }
  const std::string& dir() const { return dir_.path(); }

  void stop();     // SIGTERM, then waits for the exit
  void kill9();    // SIGKILL: no shutdown save, no goodbye to clients
  void restart();  // starts again on the same port and directory once stopped or killed
  void pause();    // SIGSTOP
  void resume();   // SIGCONT

  // One command on an admin connection, reconnected once if it broke (e.g. after
  // a restart or CLIENT KILL). Throws RedisIoError when the server cannot answer.
  RedisReply command(const std::vector<std::string>& argv);
  // A connection of its own, authenticated like command()'s (for SELECT, SUBSCRIBE).
  RedisConnection connect() const;
  // An integer field of INFO <section>, e.g. info_integer("stats", "total_commands_processed").
  long long info_integer(const std::string& section, const std::string& field);

 private:
  void write_config() const;
  bool start();  // false when the process exited before answering (port taken)
  void drop_admin();

  RedisServerConfig config_;
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> process_;
  std::mutex admin_mutex_;  // command() may be called from several test threads
  std::optional<RedisConnection> admin_;
};

}  // namespace dlock_test
