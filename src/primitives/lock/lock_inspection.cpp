#include "primitives/lock/lock_inspection.hpp"

#include <charconv>
#include <string_view>

#include "common/error.hpp"
#include "primitives/lock/lock_resource.hpp"

namespace dlock {
namespace {

// A decimal integer of a reply that must hold one (a hold count, a token).
template <typename Integer>
Integer parse_integer(std::string_view text, const std::string& what) {
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw ProtocolError(what + ": expected an integer, got '" + std::string(text) + "'");
  }
  return value;
}

}  // namespace

LockInspection inspect_lock(ClientCore& core, const LockKeys& keys) {
  core.throw_if_closed();
  return core.execute(keys.name, [&](Connection& connection) {
    const std::string what = "inspect '" + keys.name + "'";
    const Reply reply = LockScripts::inspect().run(connection, {keys.name, keys.counter}, {});
    if (reply.array_size(what) != 3)
      throw ProtocolError(what + ": expected 3 elements, got " + reply.describe());
    LockInspection inspection;
    const ReplyView fields = reply.element(0);
    const std::size_t count = fields.array_size(what);
    for (std::size_t i = 0; i + 1 < count; i += 2) {
      inspection.holders.push_back({std::string(fields.element(i).text(what)),
                                    parse_integer<int64_t>(fields.element(i + 1).text(what), what)});
    }
    inspection.ttl_ms = reply.element(1).integer(what);
    const ReplyView token = reply.element(2);
    if (!token.is_nil()) inspection.last_token = parse_integer<uint64_t>(token.text(what), what);
    return inspection;
  });
}

}  // namespace dlock
