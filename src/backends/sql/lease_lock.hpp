// One owner's hold of one name in lease mode: the server side of the
// reentrant lock on a lock table (docs/design/backends.md 3.3). Granted by one
// statement (insert, or take over a row whose lease ended by the server's
// clock), released by one (the row stays, its lease ended: lease_dialect.hpp);
// the token comes with the grant. Re-entry is
// counted by the caller (the core's Holds), as for the ZooKeeper mutex: an
// acquire by an owner whose row is live adopts that row and its token, which
// is also how a retry after a lost answer settles (S7). Renewing is per
// client, all holds in one statement: LeaseDialect::renew. One thread uses an
// instance (and its connection) at a time. Its steps are lease_steps', which
// the client's SqlLockOps runs too; acquire()'s loop is this class's own (the
// client waits on the core's engine: sql_lock_wait.hpp), used by its tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/lease_wakeups.hpp"
#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

class LeaseLock {
 public:
  // Throws InvalidArgument naming `name` for a name the dialect's table
  // cannot hold (LeaseDialect::check_name).
  LeaseLock(SqlConnection& connection, const LeaseDialect& dialect, std::string name, std::string owner);

  // One attempt. Throws ConnectionError (then the answer may have been lost:
  // attempt again, or withdraw()), AuthError naming the GRANT to run when the
  // user may not write the table.
  LeaseAttempt try_acquire(std::chrono::milliseconds lease);
  // Attempts until granted or `wait` has passed; a broken connection is
  // attempted again. Between attempts it waits for `wakeups` (watching from
  // the first refusal, then attempting once more at once), never past the
  // holder's lease end; without wakeups, or while watching fails, it sleeps
  // as LeaseBackoff says. Giving up after an attempt whose answer was lost
  // withdraws it. Returns whether granted.
  bool acquire(std::chrono::milliseconds lease, std::chrono::milliseconds wait,
               LeaseWakeups* wakeups = nullptr);
  // Ends our row's lease, or with `keep` leaves the name locked that much
  // longer (LeaseDialect::release: `dlock run --hold-after-success`). Throws
  // LostError when it was not ours any more (its lease ended, whether or not
  // someone took it since). A broken connection is retried once, and nothing
  // to end on that retry means the first send ended it.
  void release(std::chrono::milliseconds keep = std::chrono::milliseconds(0));
  // Ends our row's lease whatever its token (an acquire whose answer was lost); best effort.
  void withdraw() noexcept;

  bool held() const { return held_; }
  std::uint64_t token() const { return token_; }
  const std::string& grant() const { return grant_; }  // LeaseAttempt::grant
  const std::string& name() const { return name_; }

 private:
  SqlConnection& connection_;
  const LeaseDialect& dialect_;
  std::string name_;
  std::string owner_;
  bool held_ = false;
  std::uint64_t token_ = 0;
  std::string grant_;
};

}  // namespace sql
}  // namespace dlock
