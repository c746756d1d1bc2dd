#include "core/count_key.hpp"

#include <charconv>

#include "common/error.hpp"

namespace dlock {

int64_t read_count(Connection& connection, const std::string& key) {
  const std::string what = "GET " + key;
  const Reply reply = connection.command({"GET", key});
  if (reply.is_nil()) return 0;
  const std::string_view text = reply.text(what);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw ProtocolError(what + ": not a count: " + reply.describe());
  }
  return value;
}

}  // namespace dlock
