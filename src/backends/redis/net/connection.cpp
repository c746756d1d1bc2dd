#include "backends/redis/net/connection.hpp"

#include <hiredis/hiredis.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <new>

#include "backends/redis/net/sigpipe_guard.hpp"
#include "backends/redis/net/tls_context.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

// The one place hiredis failures become dlock errors. `what` names the
// operation; `where` the server, never with its password.
[[noreturn]] void throw_context_error(const redisContext* context, const std::string& what,
                                      const std::string& where) {
  if (context == nullptr) {
    throw std::bad_alloc();  // hiredis returns no context only when out of memory
  }
  std::string detail = context->errstr[0] != '\0' ? context->errstr : "connection lost";
  // A socket timeout surfaces as EAGAIN's text.
  if (context->err == REDIS_ERR_IO && detail.find("temporarily unavailable") != std::string::npos) {
    detail = "timed out";
  }
  throw ConnectionError(what + " on " + where + ": " + detail);
}

// Connecting fails for good when the host name does not resolve (hiredis
// reports getaddrinfo's failures as REDIS_ERR_OTHER) or the socket file is
// missing; a refused or timed-out connection may heal.
[[noreturn]] void throw_connect_error(const redisContext* context, const ClientConfig& config) {
  try {
    throw_context_error(context, "connect", config.describe());
  } catch (const ConnectionError& error) {
    const bool missing_socket =
        config.transport == ClientConfig::Transport::unix_socket &&
        std::string_view(context->errstr).find("No such file") != std::string_view::npos;
    if (context->err == REDIS_ERR_OTHER || missing_socket) throw PermanentConnectionError(error.what());
    if (std::string_view(context->errstr).find("refused") != std::string_view::npos) {
      throw RefusedConnectionError(error.what());
    }
    throw;
  }
}

timeval to_timeval(int64_t ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms % 1000) * 1000);
  return tv;
}

void free_context(redisContext* context) {
  redisFree(context);
}

redisContext* connect(const ClientConfig& config) {
  const timeval timeout = to_timeval(config.connect_timeout_ms);
  if (config.transport == ClientConfig::Transport::unix_socket) {
    return redisConnectUnixWithTimeout(config.socket_path.c_str(), timeout);
  }
  return redisConnectWithTimeout(config.host.c_str(), config.port, timeout);
}

// The server closed or reset the connection.
bool hung_up(const redisContext& context) {
  return context.err == REDIS_ERR_EOF ||
         (context.err == REDIS_ERR_IO &&
          std::string_view(context.errstr).find("reset") != std::string_view::npos);
}

// Whether the server drops a new connection before answering its PING (any
// reply, an error included, means it speaks to us).
bool drops_fresh_connections(const ClientConfig& config) {
  const std::unique_ptr<redisContext, void (*)(redisContext*)> probe(connect(config), free_context);
  if (!probe || probe->err != 0) return false;  // not even connected: nothing to tell
  redisSetTimeout(probe.get(), to_timeval(config.connect_timeout_ms));
  try {
    if (config.tls_context) config.tls_context->start(probe.get(), config.host, config.describe());
  } catch (const ConnectionError&) {
    return false;
  }
  const char* ping[] = {"PING"};
  const SigpipeGuard guard;
  if (void* reply = redisCommandArgv(probe.get(), 1, ping, nullptr)) {
    const Reply answered(static_cast<redisReply*>(reply));
    return false;
  }
  take_tls_error();
  return hung_up(*probe);
}

struct ArgvBuffers {
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  explicit ArgvBuffers(const Argv& argv) {
    pointers.reserve(argv.size());
    lengths.reserve(argv.size());
    for (std::string_view arg : argv) {
      pointers.push_back(arg.data());
      lengths.push_back(arg.size());
    }
  }
};

}  // namespace

Connection::Connection(const ClientConfig& config, std::chrono::steady_clock::time_point deadline)
    : context_(connect(config), free_context), where_(config.describe()), config_(config) {
  if (!context_ || context_->err != 0) {
    broken_ = true;
    throw_connect_error(context_.get(), config);
  }
  if (redisSetTimeout(context_.get(), to_timeval(config.command_timeout_ms)) != REDIS_OK) {
    fail("set timeout");
  }
  if (config.transport == ClientConfig::Transport::tcp) {
    redisEnableKeepAlive(context_.get());
  }
  const TimeLimit handshake(*this, deadline, std::chrono::milliseconds(config.command_timeout_ms));
  if (config.tls_context) {
    try {
      config.tls_context->start(context_.get(), config.host, where_);
    } catch (...) {
      broken_ = true;
      throw;
    }
  }
  if (!config.password.empty()) {
    Reply reply = config.user.empty() ? command({"AUTH", config.password})
                                      : command({"AUTH", config.user, config.password});
    reply.throw_if_error("AUTH on " + where_);
  }
  if (config.db != 0) {
    const std::string db = std::to_string(config.db);
    Reply reply = command({"SELECT", db});
    reply.throw_if_error("SELECT " + db + " on " + where_);
  }
}

Connection::~Connection() = default;

void Connection::fail(const std::string& what) {
  broken_ = true;
  try {
    throw_failure(what);
  } catch (const Error& error) {
    failure_ = error.what();
    throw;
  }
}

void Connection::throw_failure(const std::string& what) const {
  const std::string failed = what + " on " + where_ + ": ";
  const bool tls = config_.tls.enabled;
  // hiredis reports a TLS alert (a client certificate refused) as plain I/O.
  if (const std::string reason = tls ? take_tls_error() : std::string(); !reason.empty()) {
    if (!replied_) throw PermanentConnectionError(failed + "the server refused the TLS session: " + reason);
    throw ConnectionError(failed + "TLS: " + reason);
  }
  // A fresh connection dropped before its first reply, and a second one too:
  // a TLS port facing plain text, or a TLS server refusing our certificate
  // (TLS 1.3 ends the handshake before the server checks it, and the alert
  // may not arrive). Retrying cannot help. A server that answers the second
  // one had killed the first (CLIENT KILL) or was restarting: retried.
  if (!replied_ && hung_up(*context_) && drops_fresh_connections(config_)) {
    throw RefusedConnectionError(failed + "the server closes connections before answering" +
                                 (!tls ? " (a TLS port? use rediss://)"
                                  : config_.tls.cert.empty()
                                      ? " (does it require a client certificate? set tls_cert and tls_key)"
                                      : " (does it accept the client certificate tls_cert?)"));
  }
  throw_context_error(context_.get(), what, where_);
}

Reply Connection::command(const Argv& argv) {
  if (asking_) {
    append({"ASKING"});
    append(argv);
    read_reply().throw_if_error("ASKING");
    return read_reply();
  }
  append(argv);
  return read_reply();
}

void Connection::append(const Argv& argv) {
  ArgvBuffers buffers(argv);  // hiredis 0.14 takes a non-const array
  if (redisAppendCommandArgv(context_.get(), static_cast<int>(argv.size()), buffers.pointers.data(),
                             buffers.lengths.data()) != REDIS_OK) {
    fail(std::string(argv.front()));
  }
  unflushed_ = true;
}

Reply Connection::read_reply() {
  void* reply = nullptr;
  // Written here, under the SIGPIPE guard, so that redisGetReply() only reads.
  if (unflushed_) flush();
  if (redisGetReply(context_.get(), &reply) != REDIS_OK || reply == nullptr) {
    fail("read reply");
  }
  replied_ = true;
  Reply checked(static_cast<redisReply*>(reply));
  if (checked.error_text().substr(0, 8) == "READONLY") demoted_ = true;
  return checked;
}

void Connection::flush() {
  SigpipeGuard guard;
  int done = 0;
  while (done == 0) {
    if (redisBufferWrite(context_.get(), &done) != REDIS_OK) {
      guard.write_failed();
      fail("write");
    }
  }
  unflushed_ = false;
}

void Connection::read_socket() {
  if (redisBufferRead(context_.get()) != REDIS_OK) {
    fail("read");
  }
}

Reply Connection::next_buffered_reply() {
  void* reply = nullptr;
  if (redisGetReplyFromReader(context_.get(), &reply) != REDIS_OK) {
    fail("parse reply");
  }
  if (reply != nullptr) replied_ = true;
  return Reply(static_cast<redisReply*>(reply));
}

int Connection::fd() const {
  return context_->fd;
}

bool Connection::closed_by_server() const {
  char byte = 0;
  const ssize_t peeked = ::recv(context_->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (peeked == 0) return true;  // the server's FIN
  return peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

void Connection::set_timeout(std::chrono::milliseconds timeout) {
  if (redisSetTimeout(context_.get(), to_timeval(timeout.count())) != REDIS_OK) {
    fail("set timeout");
  }
}

TimeLimit::TimeLimit(Connection& connection, std::chrono::steady_clock::time_point deadline,
                     std::chrono::milliseconds usual)
    : connection_(connection), usual_(usual) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  connection_.set_timeout(std::clamp(left, std::chrono::milliseconds(1), usual));
}

TimeLimit::~TimeLimit() {
  if (connection_.broken()) return;
  try {
    connection_.set_timeout(usual_);
  } catch (const Error&) {
    // set_timeout() marked the connection broken: the pool drops it.
  }
}

}  // namespace dlock
