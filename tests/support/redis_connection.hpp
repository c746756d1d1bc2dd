#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct redisContext;

namespace dlock_test {

// A reply copied out of hiredis, so callers never own hiredis memory.
struct RedisReply {
  enum class Type { string, array, integer, nil, status, error };

  Type type = Type::nil;
  std::string str;  // string, status and error replies
  long long integer = 0;
  std::vector<RedisReply> elements;

  bool is_error() const { return type == Type::error; }
};

// The connection broke or timed out (the reply, if any, is lost).
class RedisIoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One hiredis connection used to inspect and forge server state beside the library.
class RedisConnection {
 public:
  static RedisConnection tcp(const std::string& host, int port, std::chrono::milliseconds timeout);
  static RedisConnection unix_socket(const std::string& path, std::chrono::milliseconds timeout);
  // TLS (builds with hiredis_ssl only), trusting `ca_file` and presenting the
  // client certificate when one is given. Throws RedisIoError.
  static RedisConnection tls(const std::string& host, int port, std::chrono::milliseconds timeout,
                             const std::string& ca_file, const std::string& cert_file,
                             const std::string& key_file);

  // Sends one command (argv form) and waits for its reply. Throws RedisIoError.
  RedisReply command(const std::vector<std::string>& argv);
  // The next reply the server pushes (pub/sub messages); nullopt when none arrives
  // within the connection's timeout, after which the connection is unusable.
  std::optional<RedisReply> read_pushed();

  // The hiredis context itself, for callers that measure hiredis alone (the
  // benchmark's bare reference loop) or poll the socket themselves.
  redisContext* hiredis() const { return context_.get(); }

 private:
  struct ContextDeleter {
    void operator()(redisContext* context) const;
  };
  explicit RedisConnection(redisContext* context, const std::string& address);

  std::unique_ptr<redisContext, ContextDeleter> context_;
};

}  // namespace dlock_test
