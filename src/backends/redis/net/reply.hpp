// A Redis reply with checked accessors, after redis-plus-plus's reply.h: the
// one place that knows hiredis's reply types. A caller asks for the shape it
// expects and gets a ProtocolError quoting what came instead; an error reply
// becomes the dlock error its text calls for (see throw_if_error()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct redisReply;

namespace dlock {

// A reply or one element of an array reply; does not own it.
class ReplyView {
 public:
  explicit ReplyView(const redisReply* reply) : reply_(reply) {}

  bool is_error() const;
  bool is_nil() const;
  bool is_array() const;
  // The error reply's text ("NOSCRIPT ...", "WRONGTYPE ..."); empty for other replies.
  std::string_view error_text() const;

  // Typed accessors: each throws ProtocolError naming `what` unless the reply
  // has that shape (an error reply is thrown as throw_if_error() does).
  int64_t integer(const std::string& what) const;
  bool integer_is_one(const std::string& what) const { return integer(what) == 1; }
  std::string_view text(const std::string& what) const;  // a bulk string or a status
  // A bulk string that holds a decimal integer (a stored token, a hold
  // count); Integer is int64_t or uint64_t.
  template <typename Integer>
  Integer decimal(const std::string& what) const;
  std::size_t array_size(const std::string& what) const;
  ReplyView element(std::size_t index) const;  // after array_size()

  // Throws the error an error reply stands for, naming `what`: AuthError for
  // credentials and ACL denials, TransientServerError for a server state that
  // passes (LOADING, BUSY, MASTERDOWN, TRYAGAIN, CLUSTERDOWN, READONLY, too many
  // clients), RedirectError for MOVED and ASK, ProtocolError for the rest (WRONGTYPE, OOM, script errors).
  // Returns for any other reply.
  void throw_if_error(const std::string& what) const;

  // A short printable form of the reply, for messages.
  std::string describe() const;

 protected:
  const redisReply* reply_;
};

// A whole reply as read from a connection; frees it when it goes.
class Reply : public ReplyView {
 public:
  explicit Reply(redisReply* reply);
  Reply(Reply&& other) noexcept;
  Reply& operator=(Reply&& other) noexcept;
  ~Reply();
  Reply(const Reply&) = delete;
  Reply& operator=(const Reply&) = delete;

  explicit operator bool() const { return reply_ != nullptr; }
};

}  // namespace dlock
