#include "primitives/lock/holder_note.hpp"

#include "backends/redis/lock_ops/lock_lua.hpp"
#include "backends/redis/net/script.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

std::string note_key(const LockKeys& keys) {
  return LockKeys::prefixed("dlock_holder", keys.name);
}

Script& note_script() {
  static Script script("note_holder", lua::lock::note_holder);
  return script;
}

}  // namespace

void note_holder(ClientCore& core, const LockKeys& keys, uint64_t owner, const std::string& note) {
  core.throw_if_closed();
  const std::string field = core.field(owner);
  const std::string key = note_key(keys);
  const bool noted = redis_session(core).execute(keys.name, [&](Connection& connection) {
    const std::string what = "note the holder of '" + keys.name + "'";
    return note_script().run(connection, {keys.name, key}, {field, note}).integer_is_one(what);
  });
  if (!noted) throw NotOwnerError("'" + keys.name + "' is not held by this owner: no note written");
}

std::optional<HolderNote> read_holder_note(ClientCore& core, const LockKeys& keys) {
  core.throw_if_closed();
  const std::string key = note_key(keys);
  return redis_session(core).execute(keys.name, [&](Connection& connection) -> std::optional<HolderNote> {
    const std::string what = "read the holder note '" + key + "'";
    const Reply reply = connection.command({"GET", key});
    if (reply.is_nil()) return std::nullopt;
    const std::string_view text = reply.text(what);
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) throw ProtocolError(what + ": not a holder note");
    return HolderNote{std::string(text.substr(0, newline)), std::string(text.substr(newline + 1))};
  });
}

}  // namespace dlock
