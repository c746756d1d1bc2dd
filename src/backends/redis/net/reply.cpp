#include "backends/redis/net/reply.hpp"

#include <hiredis/hiredis.h>

#include <charconv>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace dlock {
namespace {

constexpr std::size_t longest_quote = 120;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool starts_with_word(std::string_view text, std::string_view word) {
  return starts_with(text, word) && (text.size() == word.size() || text[word.size()] == ' ');
}

std::string quoted(std::string_view text) {
  if (text.size() <= longest_quote) return std::string(text);
  return std::string(text.substr(0, longest_quote)) + "...";
}

// Redis reports an ACL denial inside a script (a command, key or channel the
// user may not use) not as NOPERM: "ERR The user executing the script can't
// ..." (7.0), "ERR ACL failure in script: ..." (7.2 and later).
bool is_auth_error(std::string_view text) {
  return starts_with_word(text, "NOAUTH") || starts_with_word(text, "WRONGPASS") ||
         starts_with_word(text, "NOPERM") || starts_with(text, "ERR invalid password") ||
         starts_with(text, "ERR AUTH") || starts_with(text, "ERR Client sent AUTH") ||
         starts_with(text, "ERR The user executing the script can't") ||
         starts_with(text, "ERR ACL failure in script");
}

// States a server leaves by itself: loading its data, running a slow script,
// without a reachable master, in a failover, or full of clients.
bool is_transient(std::string_view text) {
  for (std::string_view word : {"LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "READONLY"}) {
    if (starts_with_word(text, word)) return true;
  }
  return starts_with(text, "ERR max number of clients reached");
}

// "MOVED <slot> <host>:<port>" or "ASK <slot> <host>:<port>" (the host may be
// an IPv6 address, so the port is after the last ':').
void throw_if_redirect(std::string_view text, const std::string& message) {
  const bool ask = starts_with_word(text, "ASK");
  if (!ask && !starts_with_word(text, "MOVED")) return;
  const std::string rest(text.substr(text.find(' ') + 1));
  const std::size_t space = rest.find(' ');
  const std::size_t colon = rest.rfind(':');
  if (space == std::string::npos || colon == std::string::npos || colon < space) {
    throw ProtocolError(message + " (an unreadable redirect)");
  }
  try {
    const int slot = std::stoi(rest.substr(0, space));
    const int port = std::stoi(rest.substr(colon + 1));
    std::string host = rest.substr(space + 1, colon - space - 1);
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    throw RedirectError(message, ask, slot, std::move(host), port);
  } catch (const std::logic_error&) {
    throw ProtocolError(message + " (an unreadable redirect)");
  }
}

}  // namespace

bool ReplyView::is_error() const {
  return reply_->type == REDIS_REPLY_ERROR;
}

bool ReplyView::is_nil() const {
  return reply_->type == REDIS_REPLY_NIL;
}

bool ReplyView::is_array() const {
  return reply_->type == REDIS_REPLY_ARRAY;
}

std::string_view ReplyView::error_text() const {
  if (!is_error()) return {};
  return {reply_->str, reply_->len};
}

void ReplyView::throw_if_error(const std::string& what) const {
  if (!is_error()) return;
  const std::string_view text = error_text();
  const std::string message = what + ": " + quoted(text);
  if (is_auth_error(text)) throw AuthError(message);
  throw_if_redirect(text, message);
  if (is_transient(text)) throw TransientServerError(message);
  throw ProtocolError(message);
}

int64_t ReplyView::integer(const std::string& what) const {
  throw_if_error(what);
  if (reply_->type != REDIS_REPLY_INTEGER) {
    throw ProtocolError(what + ": expected an integer, got " + describe());
  }
  return reply_->integer;
}

std::string_view ReplyView::text(const std::string& what) const {
  throw_if_error(what);
  if (reply_->type != REDIS_REPLY_STRING && reply_->type != REDIS_REPLY_STATUS) {
    throw ProtocolError(what + ": expected a string, got " + describe());
  }
  return {reply_->str, reply_->len};
}

std::size_t ReplyView::array_size(const std::string& what) const {
  throw_if_error(what);
  if (reply_->type != REDIS_REPLY_ARRAY) {
    throw ProtocolError(what + ": expected an array, got " + describe());
  }
  return reply_->elements;
}

ReplyView ReplyView::element(std::size_t index) const {
  return ReplyView(reply_->element[index]);
}

std::string ReplyView::describe() const {
  switch (reply_->type) {
    case REDIS_REPLY_INTEGER:
      return "the integer " + std::to_string(reply_->integer);
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      return "'" + quoted({reply_->str, reply_->len}) + "'";
    case REDIS_REPLY_ARRAY:
      return "an array of " + std::to_string(reply_->elements);
    case REDIS_REPLY_NIL:
      return "nil";
    case REDIS_REPLY_ERROR:
      return "the error '" + quoted(error_text()) + "'";
    default:
      return "a reply of type " + std::to_string(reply_->type);
  }
}

Reply::Reply(redisReply* reply) : ReplyView(reply) {}

Reply::Reply(Reply&& other) noexcept : ReplyView(std::exchange(other.reply_, nullptr)) {}

Reply& Reply::operator=(Reply&& other) noexcept {
  if (this != &other) {
    freeReplyObject(const_cast<redisReply*>(reply_));
    reply_ = std::exchange(other.reply_, nullptr);
  }
  return *this;
}

Reply::~Reply() {
  freeReplyObject(const_cast<redisReply*>(reply_));
}

template <typename Integer>
Integer ReplyView::decimal(const std::string& what) const {
  const std::string_view digits = text(what);
  Integer value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    throw ProtocolError(what + ": expected an integer, got '" + std::string(digits) + "'");
  }
  return value;
}

template int64_t ReplyView::decimal<int64_t>(const std::string& what) const;
template uint64_t ReplyView::decimal<uint64_t>(const std::string& what) const;

}  // namespace dlock
