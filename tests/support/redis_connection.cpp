#include "redis_connection.hpp"

#include <hiredis/hiredis.h>
#ifdef DLOCK_HAVE_TLS
#include <hiredis/hiredis_ssl.h>
#endif
#include <sys/time.h>

#include <cerrno>

namespace dlock_test {
namespace {

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyHolder = std::unique_ptr<redisReply, ReplyDeleter>;

timeval to_timeval(std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  return tv;
}

RedisReply copy_reply(const redisReply& raw) {
  RedisReply reply;
  switch (raw.type) {
    case REDIS_REPLY_STRING: reply.type = RedisReply::Type::string; break;
    case REDIS_REPLY_ARRAY: reply.type = RedisReply::Type::array; break;
    case REDIS_REPLY_INTEGER: reply.type = RedisReply::Type::integer; break;
    case REDIS_REPLY_NIL: reply.type = RedisReply::Type::nil; break;
    case REDIS_REPLY_ERROR: reply.type = RedisReply::Type::error; break;
    default: reply.type = RedisReply::Type::status; break;
  }
  if (raw.str != nullptr) reply.str.assign(raw.str, raw.len);
  reply.integer = raw.integer;
  for (size_t i = 0; i < raw.elements; ++i) reply.elements.push_back(copy_reply(*raw.element[i]));
  return reply;
}

// hiredis 0.14 reports a read timeout as an EAGAIN I/O error, hiredis >= 1.0 as REDIS_ERR_TIMEOUT.
bool timed_out(const redisContext& context) {
#ifdef REDIS_ERR_TIMEOUT
  if (context.err == REDIS_ERR_TIMEOUT) return true;
#endif
  return context.err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace

void RedisConnection::ContextDeleter::operator()(redisContext* context) const { redisFree(context); }

RedisConnection::RedisConnection(redisContext* context, const std::string& address) : context_(context) {
  if (context == nullptr) throw RedisIoError("cannot allocate a connection to " + address);
  if (context->err != 0) throw RedisIoError("connect " + address + ": " + context->errstr);
}

RedisConnection RedisConnection::tcp(const std::string& host, int port, std::chrono::milliseconds timeout) {
  RedisConnection connection(redisConnectWithTimeout(host.c_str(), port, to_timeval(timeout)),
                             host + ":" + std::to_string(port));
  redisSetTimeout(connection.context_.get(), to_timeval(timeout));
  return connection;
}

RedisConnection RedisConnection::unix_socket(const std::string& path, std::chrono::milliseconds timeout) {
  RedisConnection connection(redisConnectUnixWithTimeout(path.c_str(), to_timeval(timeout)), path);
  redisSetTimeout(connection.context_.get(), to_timeval(timeout));
  return connection;
}

RedisConnection RedisConnection::tls(const std::string& host, int port, std::chrono::milliseconds timeout,
                                     const std::string& ca_file, const std::string& cert_file,
                                     const std::string& key_file) {
  const std::string address = host + ":" + std::to_string(port);
#ifdef DLOCK_HAVE_TLS
  RedisConnection connection = tcp(host, port, timeout);
  redisSSLContextError error = REDIS_SSL_CTX_NONE;
  const std::unique_ptr<redisSSLContext, void (*)(redisSSLContext*)> ssl(
      redisCreateSSLContext(ca_file.c_str(), nullptr, cert_file.empty() ? nullptr : cert_file.c_str(),
                            key_file.empty() ? nullptr : key_file.c_str(), nullptr, &error),
      redisFreeSSLContext);
  if (!ssl) throw RedisIoError("TLS context for " + address + ": " + redisSSLContextGetError(error));
  // The connection's SSL object keeps its own reference to the context.
  if (redisInitiateSSLWithContext(connection.context_.get(), ssl.get()) != REDIS_OK) {
    throw RedisIoError("TLS handshake with " + address + ": " + connection.context_->errstr);
  }
  return connection;
#else
  (void)timeout, (void)ca_file, (void)cert_file, (void)key_file;
  throw RedisIoError("TLS to " + address + ": this build has no hiredis_ssl");
#endif
}

RedisReply RedisConnection::command(const std::vector<std::string>& argv) {
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  for (const std::string& argument : argv) {
    pointers.push_back(argument.data());
    lengths.push_back(argument.size());
  }
  ReplyHolder reply(static_cast<redisReply*>(
      redisCommandArgv(context_.get(), static_cast<int>(argv.size()), pointers.data(), lengths.data())));
  if (!reply) throw RedisIoError(argv.at(0) + ": " + context_->errstr);
  return copy_reply(*reply);
}

std::optional<RedisReply> RedisConnection::read_pushed() {
  void* raw = nullptr;
  if (redisGetReply(context_.get(), &raw) != REDIS_OK) {
    if (timed_out(*context_)) return std::nullopt;
    throw RedisIoError(std::string("reading a pushed reply: ") + context_->errstr);
  }
  ReplyHolder reply(static_cast<redisReply*>(raw));
  return copy_reply(*reply);
}

}  // namespace dlock_test
