#include "redis_server.hpp"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>

#include "port_claims.hpp"
#include "redis_info.hpp"

namespace dlock_test {

std::string test_server_binary() {
  const char* configured = std::getenv("DLOCK_TEST_REDIS_SERVER");
  return configured != nullptr && *configured != '\0' ? configured : "redis-server";
}

namespace {

constexpr auto kConnectTimeout = std::chrono::milliseconds(5000);
constexpr auto kStartupTimeout = std::chrono::milliseconds(15000);
constexpr int kPortAttempts = 20;

}  // namespace

// A claimed port (see port_claims.hpp), tried at random so test processes
// running side by side rarely try the same one.
int pick_free_port() {
  thread_local std::mt19937 random{std::random_device{}()};
  std::uniform_int_distribution<int> range(kLowestClaimedPort, kHighestClaimedPort);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = range(random);
    if (claim_port(port)) return port;
  }
  throw std::runtime_error("cannot claim a free loopback port");
}

namespace {

std::string server_binary(const std::string& chosen) {
  return chosen.empty() ? test_server_binary() : chosen;
}

// A server still loading its AOF answers -LOADING; anything else means it serves.
bool answers(RedisConnection& connection) {
  const RedisReply reply = connection.command({"PING"});
  return !(reply.is_error() && reply.str.rfind("LOADING", 0) == 0);
}

}  // namespace

RedisServer::RedisServer(RedisServerConfig config) : config_(std::move(config)) {
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    port_ = config_.pick_port ? config_.pick_port() : pick_free_port();
    write_config();
    if (start()) return;
  }
  throw std::runtime_error("redis-server did not start; see " + dir_.file("redis.log"));
}

RedisServer::~RedisServer() {
  if (process_) process_->kill_and_reap();
}

std::string RedisServer::url() const {
  return (config_.tls ? "rediss://127.0.0.1:" : "redis://127.0.0.1:") + std::to_string(port_);
}

void RedisServer::write_config() const {
  std::ofstream file(dir_.file("redis.conf"), std::ios::trunc);
  if (config_.tls) {
    file << "port 0\n"
         << "tls-port " << port_ << "\n"
         << "tls-cert-file " << config_.tls->cert_file << "\n"
         << "tls-key-file " << config_.tls->key_file << "\n"
         << "tls-ca-cert-file " << config_.tls->ca_file << "\n"
         << "tls-auth-clients " << config_.tls->auth_clients << "\n";
  } else {
    file << "port " << port_ << "\n";
  }
  file << "bind 127.0.0.1\n"
       << "save \"\"\n"
       << "appendonly no\n"
       << "dir " << dir_.path() << "\n"
       << "daemonize no\n";
  if (config_.unix_socket) file << "unixsocket " << socket_path() << "\nunixsocketperm 700\n";
  for (const std::string& line : config_.extra_lines) file << line << "\n";
}

bool RedisServer::start() {
  process_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{server_binary(config_.executable), dir_.file("redis.conf")},
      dir_.file("redis.log"));
  const auto deadline = std::chrono::steady_clock::now() + kStartupTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!process_->running()) return false;
    try {
      RedisConnection probe = connect();
      if (answers(probe)) return true;
    } catch (const RedisIoError&) {
      // Not listening yet.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw std::runtime_error("redis-server did not answer in time; see " + dir_.file("redis.log"));
}

RedisConnection RedisServer::connect() const {
  RedisConnection connection =
      config_.tls ? RedisConnection::tls("127.0.0.1", port_, kConnectTimeout, config_.tls->ca_file,
                                         config_.tls->client_cert_file, config_.tls->client_key_file)
                  : RedisConnection::tcp("127.0.0.1", port_, kConnectTimeout);
  if (!config_.admin_password.empty()) {
    const RedisReply reply = connection.command({"AUTH", config_.admin_user, config_.admin_password});
    if (reply.is_error()) throw std::runtime_error("admin AUTH refused: " + reply.str);
  }
  return connection;
}

void RedisServer::stop() {
  drop_admin();
  resume();
  process_->signal(SIGTERM);
  if (!process_->wait_for(std::chrono::milliseconds(10000))) process_->kill_and_reap();
}

void RedisServer::kill9() {
  drop_admin();
  process_->kill_and_reap();
}

void RedisServer::drop_admin() {
  std::lock_guard<std::mutex> guard(admin_mutex_);
  admin_.reset();
}

void RedisServer::restart() {
  if (process_->running()) stop();
  if (!start()) throw std::runtime_error("redis-server did not restart; see " + dir_.file("redis.log"));
}

void RedisServer::pause() {
  process_->signal(SIGSTOP);
}

void RedisServer::resume() {
  process_->signal(SIGCONT);
}

RedisReply RedisServer::command(const std::vector<std::string>& argv) {
  std::lock_guard<std::mutex> guard(admin_mutex_);
  if (admin_) {
    try {
      return admin_->command(argv);
    } catch (const RedisIoError&) {
      admin_.reset();
    }
  }
  admin_.emplace(connect());
  return admin_->command(argv);
}

long long RedisServer::info_integer(const std::string& section, const std::string& field) {
  const InfoFields fields = parse_info(command({"INFO", section}).str);
  const auto found = fields.find(field);
  if (found == fields.end()) throw std::runtime_error("INFO " + section + " has no field " + field);
  return std::stoll(found->second);
}

}  // namespace dlock_test
