// The reentrant lock, or another kind (a side of a read-write lock), as a
// member of a MultiLock or RedLock (core/lock_member.hpp).
#pragma once

#include <memory>
#include <string>

#include "core/client.hpp"
#include "core/lock_member.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class ReentrantLockMember final : public LockMember {
 public:
  ReentrantLockMember(std::shared_ptr<Client> client, std::shared_ptr<LockOps> ops);

  const std::string& server() const override { return server_; }
  const std::string& name() const override { return ops_->name(); }
  Outcome try_once(uint64_t owner, int64_t lease_ms, const std::shared_ptr<LostCallback>& on_lost) override;
  bool reenter(uint64_t owner) override;
  std::unique_ptr<WaitWatch> watch(Waiter& waiter) override;
  void release(uint64_t owner) override;
  void release_unrecorded(uint64_t owner) noexcept override;
  std::optional<Clock::time_point> valid_until(uint64_t owner) override;
  bool expired(uint64_t owner) override;
  bool closed() override;
  int64_t watchdog_lease_ms() override;
  AsyncRunner& async_runner() override;

 private:
  std::shared_ptr<Client> client_;
  std::shared_ptr<LockOps> ops_;
  std::string server_;
};

}  // namespace dlock
