#include "backends/redis/lock_ops/lock_inspection.hpp"

#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

// A lock's holder fields are "<client id>:<owner id>" (Redisson's
// "<uuid>:<thread id>"), a kept hold's with ":kept" after them, and their
// values hold counts of at least 1: a hash with other fields is not a lock.
bool is_lock_holder(std::string field, int64_t hold_count) {
  static const std::string kept = ":kept";
  if (field.size() > kept.size() && field.compare(field.size() - kept.size(), kept.size(), kept) == 0) {
    field.resize(field.size() - kept.size());
  }
  const std::size_t colon = field.rfind(':');
  if (hold_count < 1 || colon == std::string::npos || colon == 0 || colon + 1 == field.size()) return false;
  return field.find_first_not_of("0123456789", colon + 1) == std::string::npos;
}

}  // namespace

LockInspection inspect_lock(ClientCore& core, const LockKeys& keys) {
  core.throw_if_closed();
  return redis_session(core).execute(keys.name, [&](Connection& connection) {
    const std::string what = "inspect '" + keys.name + "'";
    const Reply reply = LockScripts::inspect().run(connection, {keys.name, keys.counter}, {});
    if (reply.array_size(what) != 3)
      throw ProtocolError(what + ": expected 3 elements, got " + reply.describe());
    LockInspection inspection;
    const ReplyView fields = reply.element(0);
    const std::size_t count = fields.array_size(what);
    for (std::size_t i = 0; i + 1 < count; i += 2) {
      LockHolder holder{std::string(fields.element(i).text(what)), fields.element(i + 1).decimal<int64_t>(what)};
      if (!is_lock_holder(holder.field, holder.hold_count))
        throw ProtocolError(what + ": a hash whose fields are not lock holders");
      inspection.holders.push_back(std::move(holder));
    }
    inspection.ttl_ms = reply.element(1).integer(what);
    const ReplyView token = reply.element(2);
    if (!token.is_nil()) inspection.last_token = token.decimal<uint64_t>(what);
    return inspection;
  });
}

}  // namespace dlock
