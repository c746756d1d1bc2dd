#include "backends/zookeeper/zk_permit_leases.hpp"

#include <zookeeper/zookeeper.h>

#include <cstdint>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_nodes.hpp"
#include "backends/zookeeper/zk_paths.hpp"
#include "common/error.hpp"

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

ZkPermitLeases::ZkPermitLeases(ZkLockOps::SessionOf session, std::string name)
    : session_(std::move(session)),
      name_(std::move(name)),
      path_(zk::lock_path(name_)),
      permits_path_(path_ + "/permits") {}

std::shared_ptr<LockOps> ZkPermitLeases::leases(int max_leases) {
  return std::make_shared<ZkLockOps>(session_, name_, ZkLockLayout::semaphore(name_, max_leases));
}

std::optional<int> ZkPermitLeases::permits() {
  const zk::DataResult stored = zk::get(*session_(), permits_path_);
  if (stored.rc == ZNONODE) return std::nullopt;
  if (stored.rc != ZOK) zk::raise_for(stored.rc, "get", permits_path_);
  return shared_count_value(stored.data, permits_path_);
}

bool ZkPermitLeases::try_set_permits(int permits) {
  const std::shared_ptr<zk::ZkSession> held_by = session_();
  zk::ZkSession& session = *held_by;
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

int64_t ZkPermitLeases::leases_taken() {
  const std::string leases_path = path_ + "/leases";
  const zk::ChildrenResult leases = zk::get_children(*session_(), leases_path);
  if (leases.rc == ZNONODE) return 0;
  if (leases.rc != ZOK) zk::raise_for(leases.rc, "getChildren", leases_path);
  return static_cast<int64_t>(leases.children.size());
}

}  // namespace dlock
