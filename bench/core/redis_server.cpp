#include "redis_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include "endpoint.hpp"
#include "redis_link.hpp"

namespace dlock_bench {
namespace {

constexpr int reserved_redis_port = 6379;  // a developer's own server may be there

// A port the kernel just handed out on 127.0.0.1, free once the probe closes.
int free_loopback_port() {
  for (;;) {
    const int probe = socket(AF_INET, SOCK_STREAM, 0);
    if (probe < 0) throw std::runtime_error("socket() failed while looking for a free port");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    const bool bound = bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                       getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    close(probe);
    if (!bound) throw std::runtime_error("could not bind a probe socket on 127.0.0.1");
    const int port = ntohs(address.sin_port);
    if (port != reserved_redis_port) return port;
  }
}

}  // namespace

RedisServer::RedisServer(const std::string& executable) {
  char dir_template[] = "/tmp/dlock-bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = dir_template;
  port_ = free_loopback_port();
  const std::string port = std::to_string(port_);
  const std::string log = dir_ + "/redis.log";
  std::vector<const char*> argv = {executable.c_str(), "--port",    port.c_str(),   "--bind", "127.0.0.1",
                                   "--save",           "",          "--appendonly", "no",     "--dir",
                                   dir_.c_str(),       "--logfile", log.c_str(),    nullptr};
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    execvp(argv[0], const_cast<char* const*>(argv.data()));
    _exit(127);
  }
  try {
    wait_until_ready();
  } catch (...) {
    stop();
    throw;
  }
}

void RedisServer::wait_until_ready() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  Endpoint endpoint;
  endpoint.port = port_;
  for (;;) {
    try {
      RedisLink link(endpoint);
      link.command({"PING"});
      return;
    } catch (const std::runtime_error&) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("redis-server exited at start (see " + dir_ + "/redis.log)");
      }
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("redis-server did not answer on port " + std::to_string(port_));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

RedisServer::~RedisServer() {
  stop();
}

void RedisServer::stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace dlock_bench
