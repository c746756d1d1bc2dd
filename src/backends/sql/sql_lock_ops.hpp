// The reentrant lock's operations on a SQL lock table (core/lock_ops.hpp),
// lease mode (docs/design/backends.md 3.3): dlock's table or ShedLock's, one
// row per name. A grant is our row: GrantRef::token its token,
// GrantRef::locator its grant text (LeaseAttempt::grant), which release and
// renewal match so they act on this grant only. A lease is the row's, by the
// server's clock: fixed leases are served; the watchdog's renewal is the
// keeper's one statement (sql_keeper.hpp), and extending is that statement
// for one grant.
//
// The same ops serve the leased-permit semaphore's leases (SqlRows::
// permit_leases: sql_permit_leases.hpp), a row per lease under the
// semaphore's name, `max_leases` live at most; only taking one differs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backends/sql/sql_held.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class SqlClientSession;
namespace sql {
class SqlConnection;
}  // namespace sql

class SqlLockOps final : public LockOps {
 public:
  // The client's session of the moment: a handle outlives fork(), after which
  // the child's core has its own. Each call asks for it again; a wait keeps
  // the one it began on.
  using SessionOf = std::function<SqlClientSession&()>;
  // Run on the granting connection right after each grant (an election's
  // leader record); what it throws ends the wait as the grant's own error would.
  using OnGrant = std::function<void(sql::SqlConnection& connection, const std::string& name, std::uint64_t token)>;

  // Throws InvalidArgument for a name the table cannot hold.
  SqlLockOps(SessionOf session, std::string name, SqlRows rows = SqlRows::locks, int max_leases = 1,
             OnGrant on_grant = {});

  const char* backend() const override { return scheme_; }
  bool fixed_leases() const override { return true; }
  bool reentrant() const override { return true; }
  const std::string& name() const override { return name_; }
  const std::string& hold_key() const override { return held_->hold_key(); }
  // The row's owner column.
  std::string hold_field(const std::string& client_field) const override { return client_field; }
  std::shared_ptr<const HeldResource> held() const override { return held_; }

  std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) override;
  // PostgreSQL: LISTEN on the name's channel; MySQL: nothing (the member's
  // wait backs off on its own deadline).
  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override;
  // Ends the row's lease if it is still this grant's. Without a locator (a
  // withdrawal): the owner's live row of the name, whatever its grant.
  bool release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  // A retry after a send whose answer was lost, finding nothing to end,
  // answers "released" (lease_steps' end_lease).
  Settle settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  // The keeper's renewal for this one grant (LeaseDialect::renew): a lease
  // that ended is not brought back.
  Extension extend(const GrantRef& grant, int64_t lease_ms) override;
  // Its lease ends keep_ms from now, on either table (on ShedLock's, its
  // unlock with lockAtLeastFor: `dlock run --hold-after-success`).
  bool keeps() const override { return true; }
  bool release_keeping(const GrantRef& grant, int64_t keep_ms) override;
  // Ends the row's live lease whoever holds it; its holder's watchdog finds
  // it ended and reports the hold lost.
  bool force_release() override;
  bool is_locked() override;
  // The row's lease left by the server's clock, -2 when nobody holds it.
  int64_t ttl_ms() override;
  // The row's holder while its lease is live (the server counts no
  // re-entry: 1), its lease left, its last token (none on ShedLock's table).
  LockInspection inspect() override;
  // In the row's note column; ShedLock's table has none (unsupported).
  bool note_holder(const std::string& field, const std::string& note) override;
  std::optional<HolderNote> holder_note() override;

 private:
  const SessionOf session_;
  const std::string name_;
  const SqlRows rows_;
  const int max_leases_;
  const OnGrant on_grant_;
  const char* const scheme_;
  const std::shared_ptr<const SqlHeld> held_;
};

}  // namespace dlock
