#include "tcp_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dlock_test {
namespace {

// Short enough that partition() and heal() take effect at once for a test's purposes.
constexpr int kPollIntervalMs = 5;

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("tcp proxy: " + what + ": " + std::strerror(errno));
}

}  // namespace

TcpProxy::TcpProxy(int upstream_port) : upstream_port_(upstream_port) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) fail("socket");
  sockaddr_in address = loopback(0);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) fail("bind");
  if (listen(listen_fd_, 64) != 0) fail("listen");
  socklen_t length = sizeof address;
  if (getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) fail("getsockname");
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { run(); });
}

TcpProxy::~TcpProxy() {
  stopping_ = true;
  thread_.join();
  for (const Link& link : links_) {
    close(link.client_fd);
    close(link.upstream_fd);
  }
  close(listen_fd_);
}

std::string TcpProxy::url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

void TcpProxy::run() {
  while (!stopping_) {
    const bool forwarding = !partitioned_;
    std::vector<pollfd> watched{{listen_fd_, POLLIN, 0}};
    if (forwarding) {
      for (const Link& link : links_) {
        watched.push_back({link.client_fd, POLLIN, 0});
        watched.push_back({link.upstream_fd, POLLIN, 0});
      }
    }
    if (poll(watched.data(), watched.size(), kPollIntervalMs) <= 0) continue;
    if (forwarding) {
      std::vector<Link> open_links;
      for (std::size_t i = 0; i < links_.size(); ++i) {
        const Link link = links_[i];
        const bool client_ok = !watched[1 + 2 * i].revents || forward(link.client_fd, link.upstream_fd);
        const bool upstream_ok = !watched[2 + 2 * i].revents || forward(link.upstream_fd, link.client_fd);
        if (client_ok && upstream_ok) {
          open_links.push_back(link);
        } else {
          close(link.client_fd);
          close(link.upstream_fd);
        }
      }
      links_ = std::move(open_links);
    }
    // Last: a link accepted now has no entry in `watched` yet.
    if (watched[0].revents & POLLIN) accept_one();
  }
}

void TcpProxy::accept_one() {
  const int client_fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (client_fd < 0) return;
  const int upstream_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address = loopback(upstream_port_);
  if (upstream_fd < 0 || connect(upstream_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(client_fd);
    if (upstream_fd >= 0) close(upstream_fd);
    return;
  }
  links_.push_back({client_fd, upstream_fd});
}

bool TcpProxy::forward(int from, int to) {
  char buffer[16384];
  const ssize_t received = read(from, buffer, sizeof buffer);
  if (received <= 0) return false;
  for (ssize_t sent = 0; sent < received;) {
    const ssize_t written = send(to, buffer + sent, static_cast<size_t>(received - sent), MSG_NOSIGNAL);
    if (written <= 0) return false;
    sent += written;
  }
  return true;
}

}  // namespace dlock_test
