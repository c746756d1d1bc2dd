#include "backends/zookeeper/zk_permit_semaphore.hpp"

#include <zookeeper/zookeeper.h>

#include <algorithm>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_nodes.hpp"
#include "backends/zookeeper/zk_paths.hpp"
#include "common/error.hpp"
#include "primitives/lock/acquire_process.hpp"
#include "primitives/lock/reentrant_lock.hpp"
#include "primitives/permit_semaphore/permit_keys.hpp"

namespace dlock {
namespace {

// Curator's SharedCount: the int's 4 bytes, big-endian.
std::string shared_count_bytes(int count) {
  const auto value = static_cast<uint32_t>(count);
  return {static_cast<char>(value >> 24), static_cast<char>(value >> 16), static_cast<char>(value >> 8),
          static_cast<char>(value)};
}

int shared_count_value(const std::string& bytes, const std::string& path) {
  if (bytes.size() != 4) {
    throw ProtocolError("ZooKeeper node " + path + " holds " + std::to_string(bytes.size()) +
                        " bytes, not a SharedCount's 4");
  }
  uint32_t value = 0;
  for (const char byte : bytes) value = value << 8 | static_cast<unsigned char>(byte);
  return static_cast<int>(value);
}

}  // namespace

ZkPermitSemaphoreOps::ZkPermitSemaphoreOps(ZkLockOps::SessionOf session, std::string name)
    : session_(std::move(session)),
      name_(std::move(name)),
      path_(zk::lock_path(name_)),
      permits_path_(path_ + "/permits") {}

std::shared_ptr<ZkLockOps> ZkPermitSemaphoreOps::leases(int max_leases) const {
  return std::make_shared<ZkLockOps>(session_, name_, ZkLockLayout::semaphore(name_, max_leases));
}

std::optional<int> ZkPermitSemaphoreOps::stored_permits() {
  const zk::DataResult stored = zk::get(session_(), permits_path_);
  if (stored.rc == ZNONODE) return std::nullopt;
  if (stored.rc != ZOK) zk::raise_for(stored.rc, "get", permits_path_);
  return shared_count_value(stored.data, permits_path_);
}

PermitSemaphoreOps::Wait ZkPermitSemaphoreOps::acquire_wait(ClientCore& core, const PermitRequest& request) {
  core.throw_if_closed();
  const int permits = stored_permits().value_or(0);
  if (permits < 1) {
    throw InvalidArgument("acquire a permit of '" + name_ + "': the zookeeper backend finds no permits set at " +
                          permits_path_ + " (try_set_permits sets them, as Curator's participants agree on maxLeases)");
  }
  AcquireRequest lease;
  lease.owner = PermitId::fresh().owner;  // a hold of its own per permit
  lease.wait_ms = request.wait_ms;
  lease.lease_ms = request.lease_ms;
  lease.cancel = request.cancel;
  lease.handle = request.handle;
  lease.on_lost = request.on_lost;
  // AcquireProcess refuses a fixed lease, naming lease_ms and the backend.
  auto acquire = std::make_shared<AcquireProcess>(ReentrantLock(core, leases(permits)), lease);
  return {std::make_shared<WaitProcess>(acquire, acquire->spec()),
          [acquire, owner = lease.owner] { return PermitId::text(owner, acquire->token()); }};
}

void ZkPermitSemaphoreOps::release(ClientCore& core, std::string_view id) {
  const PermitId permit = PermitId::parse(id, "permit_id");
  const std::shared_ptr<ZkLockOps> ops = leases(1);  // how many does not matter to a release
  const auto not_ours = [&] {
    return NotOwnerError("permit_id: '" + std::string(id) + "' is no permit this client holds of '" + name_ +
                         "' (on zookeeper only the client that took a permit releases it)");
  };
  const std::optional<Hold> hold = core.holds().find(ops->hold_key(), permit.owner);
  if (hold && hold->grant.token != permit.token) throw not_ours();
  try {
    // Without a hold it may still settle a release of it that failed before.
    ReentrantLock(core, ops).release(permit.owner);
  } catch (const NotOwnerError&) {
    throw not_ours();
  }
}

bool ZkPermitSemaphoreOps::try_set_permits(ClientCore& core, int permits) {
  core.throw_if_closed();
  zk::ZkSession& session = session_();
  const std::string count = shared_count_bytes(permits);
  zk::CreateResult made = zk::create(session, permits_path_, count, 0);
  if (made.rc == ZNONODE) {
    zk::create_containers(session, path_);
    made = zk::create(session, permits_path_, count, 0);
  }
  if (made.rc == ZNODEEXISTS) return false;
  if (made.rc != ZOK) zk::raise_for(made.rc, "create", permits_path_);
  return true;
}

int64_t ZkPermitSemaphoreOps::available_permits(ClientCore& core) {
  core.throw_if_closed();
  const int permits = stored_permits().value_or(0);
  const std::string leases_path = path_ + "/leases";
  const zk::ChildrenResult leases = zk::get_children(session_(), leases_path);
  if (leases.rc != ZOK && leases.rc != ZNONODE) zk::raise_for(leases.rc, "getChildren", leases_path);
  const auto taken = static_cast<int64_t>(leases.rc == ZOK ? leases.children.size() : 0);
  return std::max<int64_t>(0, permits - taken);
}

}  // namespace dlock
