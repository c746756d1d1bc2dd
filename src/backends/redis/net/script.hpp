// A Lua script run with EVALSHA. Its SHA1 is asked of the server once per
// process (SCRIPT LOAD); when a server has lost it (restart, failover,
// SCRIPT FLUSH) the NOSCRIPT reply is answered by sending the source (EVAL).
#pragma once

#include <mutex>
#include <string>
#include <string_view>

#include "backends/redis/net/connection.hpp"

namespace dlock {

class Script {
 public:
  // `name` (static text) for messages.
  Script(const char* name, std::string source);

  // The arguments of one call: EVALSHA sha numkeys keys... args... The
  // argument views point into the call itself, so it is neither copied nor
  // moved.
  class Call {
   public:
    Call(std::string sha, const Argv& keys, const Argv& args);
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
    const Argv& argv() const { return argv_; }
    Argv with_source(std::string_view source) const;

   private:
    std::string sha_;
    std::string numkeys_;
    Argv argv_;
  };

  // Runs the script and returns its reply; an error reply is thrown as
  // ReplyView::throw_if_error() does, I/O failure as ConnectionError.
  Reply run(Connection& connection, const Argv& keys, const Argv& args);

  // For pipelines: a reply to call.argv() made final (re-sent with the
  // source on NOSCRIPT, so no other reply may be pending; errors thrown as
  // run() does).
  Reply finish(Connection& connection, const Call& call, Reply reply);

  // The SHA1 of the script's variant for `connection`, loaded on the server
  // on first use.
  std::string loaded_sha(Connection& connection);

 private:
  struct Variant {
    std::string source;
    std::string sha;  // under sha_mutex_
  };
  Variant& variant(const Connection& connection);

  const char* name_;
  Variant plain_;
  Variant sharded_;  // redis.call('publish', ...) -> redis.call('spublish', ...)
  std::mutex sha_mutex_;
};

}  // namespace dlock
