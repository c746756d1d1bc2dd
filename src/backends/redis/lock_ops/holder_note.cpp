#include "backends/redis/lock_ops/holder_note.hpp"

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

bool note_holder(ClientCore& core, const LockKeys& keys, const std::string& field, const std::string& note) {
  const std::string key = note_key(keys);
  return redis_session(core).execute(keys.name, [&](Connection& connection) {
    const std::string what = "note the holder of '" + keys.name + "'";
    return note_script().run(connection, {keys.name, key}, {field, note}).integer_is_one(what);
  });
}

std::optional<HolderNote> read_holder_note(ClientCore& core, const LockKeys& keys) {
  const std::string key = note_key(keys);
  return redis_session(core).execute(keys.name, [&](Connection& connection) -> std::optional<HolderNote> {
    const std::string what = "read the holder note '" + key + "'";
    const Reply reply = connection.command({"GET", key});
    if (reply.is_nil()) return std::nullopt;
    std::optional<HolderNote> note = HolderNote::from_stored(reply.text(what));
    if (!note) throw ProtocolError(what + ": not a holder note");
    return note;
  });
}

}  // namespace dlock
