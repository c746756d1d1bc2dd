#include "primitives/lock/lock_inspection.hpp"

#include <string_view>

#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"

namespace dlock {

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
      inspection.holders.push_back(
          {std::string(fields.element(i).text(what)), fields.element(i + 1).decimal<int64_t>(what)});
    }
    inspection.ttl_ms = reply.element(1).integer(what);
    const ReplyView token = reply.element(2);
    if (!token.is_nil()) inspection.last_token = token.decimal<uint64_t>(what);
    return inspection;
  });
}

}  // namespace dlock
