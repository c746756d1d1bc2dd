// The lease-mode lock's statements on one table, one implementation per
// server kind and table layout: dlock's lock table (docs/design/backends.md
// 3.1-3.3: pg_lease_dialect.cpp, mysql_lease_dialect.cpp) and ShedLock's
// (3.6: shedlock_dialect.hpp). Every lease is by the server's clock; an
// owner is "<client-uuid>:<owner>".
//
// A released row stays, its lease ended, rather than being deleted: every
// grant but a name's first then takes the row over under its row lock, with
// a token above the row's last, so a name's tokens rise in grant order even
// when an attempt took its token from the sequence before a later grant did.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/sql/sql_connection.hpp"
#include "core/lock_inspection.hpp"

namespace dlock {
namespace sql {

// The most bytes a name of dlock's lock table holds (its name column).
constexpr std::size_t kMaxLockNameBytes = 1024;

struct LeaseAttempt {
  bool granted = false;
  std::uint64_t token = 0;  // granted: ours; refused: the holder's (0 when the layout keeps none)
  // What release and renewal match besides the owner, so they act on this
  // grant only: the token's text (lock table), locked_at (ShedLock's table).
  std::string grant;
  std::string holder;  // refused: the holder's owner field; empty when no row was seen
  // Refused: the holder's lease left by the server's clock. Neither granted
  // nor a holder: the row went between the two looks; try again at once.
  std::chrono::milliseconds holder_lease_left{0};
};

// A name's row as it is (lease live or ended), for inspection.
struct LeaseRow {
  std::string holder;  // the owner field (ShedLock's table: dlock's on this host; else locked_by)
  std::chrono::milliseconds left{0};   // by the server's clock; 0 or less once the lease ended
  std::optional<std::uint64_t> token;  // the row's last token; none on ShedLock's table, which keeps none

  bool live() const { return left.count() > 0; }
};

struct LeaseHold {
  std::string name;
  std::uint64_t token = 0;
  std::string grant;  // LeaseAttempt::grant (ShedLock's table matches it; the lock table, the token)
};

class LeaseDialect {
 public:
  virtual ~LeaseDialect() = default;

  const std::string& table() const { return table_; }
  // CREATE ... IF NOT EXISTS statements for what the lock uses, in order.
  virtual std::vector<std::string> schema() const = 0;
  // Whether the table and the token's source exist (without creating anything).
  virtual bool schema_exists(SqlConnection& connection) const = 0;
  // The GRANT statement that lets `user` use the lock.
  virtual std::string grant(const std::string& user) const = 0;
  // Throws InvalidArgument naming `name` when the table cannot hold it (the
  // lock table: 1 to 1,024 bytes, any bytes).
  virtual void check_name(const std::string& name) const;

  // One statement (one round trip): inserts our row, or takes over a row
  // whose lease ended, with a new token; else reports the row as it is.
  // A row already ours is reported as refused with us as holder (the caller
  // adopts it when its lease is live: the row may be read as the statement's
  // snapshot saw it, older than the grant that refused us).
  virtual LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                               std::chrono::milliseconds lease) const = 0;
  // Ends the row's lease when it is still (name, owner, grant) and live; the
  // rows ended (0 or 1). With `keep`, the row stays locked that much longer,
  // from now (3.3's release_keeping; on ShedLock's table its unlock with
  // lockAtLeastFor = the time since the grant + keep).
  std::uint64_t release(SqlConnection& connection, const std::string& name, const std::string& owner,
                        const std::string& grant,
                        std::chrono::milliseconds keep = std::chrono::milliseconds(0)) const;
  // Ends the owner's live row of that name, whatever its token (an acquire whose answer was lost).
  std::uint64_t withdraw(SqlConnection& connection, const std::string& name, const std::string& owner) const;
  // One statement for all: extends each hold of the client `client_id` whose
  // lease has not ended to now + `lease`; returns the tokens it extended
  // (a hold missing is lost, never resurrected).
  virtual std::vector<std::uint64_t> renew(SqlConnection& connection, const std::string& client_id,
                                           const std::vector<LeaseHold>& holds,
                                           std::chrono::milliseconds lease) const = 0;
  // The lease left on `name` by the server's clock; nullopt when nobody holds it.
  std::optional<std::chrono::milliseconds> lease_left(SqlConnection& connection,
                                                      const std::string& name) const;
  // The row of `name` (of several, as a permit's lease table keeps, the one
  // whose lease ends last); nullopt when the table has none.
  std::optional<LeaseRow> row(SqlConnection& connection, const std::string& name) const;
  // The names whose lease is live and that start with `prefix` (`dlock list`).
  std::vector<std::string> live_names(SqlConnection& connection, const std::string& prefix) const;
  // Whether the table keeps a holder note (ShedLock's has no column for one).
  bool keeps_notes() const { return !statements_.note.empty(); }
  // Records `note` on `name`'s row while `owner` holds it, replacing the last;
  // whether it held. Only where keeps_notes().
  bool note_holder(SqlConnection& connection, const std::string& name, const std::string& owner,
                   const std::string& note) const;
  // The last note recorded on `name`'s row. Only where keeps_notes().
  std::optional<HolderNote> holder_note(SqlConnection& connection, const std::string& name) const;
  // Ends the live lease of `name` whoever holds it (an administrator's forced
  // release: the holder's watchdog finds it ended and reports it lost); the
  // rows ended (0 or 1). PostgreSQL's lock table notifies the waiters.
  std::uint64_t force_end(SqlConnection& connection, const std::string& name) const;

 protected:
  // The statements that differ between servers in text only. Each takes the
  // name first (release: as release_params() says; live_names: nothing);
  // withdraw then the stored owner. Release, withdraw and force_end's
  // SqlResult::affected counts the rows ended. `row` returns the stored
  // owner, the whole milliseconds left (0 or less once ended) and the token
  // (NULL where the layout keeps none); live_names the hex of each name
  // whose lease is live. `note` (empty where the table keeps none) takes the
  // stored note, the name and the owner, in that order; `read_note` returns
  // the stored note.
  struct RowStatements {
    std::string row;
    std::string release;
    std::string withdraw;
    std::string live_names;
    std::string force_end;
    std::string note = {};
    std::string read_note = {};
  };

  LeaseDialect(std::string table, RowStatements statements)
      : table_(std::move(table)), statements_(std::move(statements)) {}

  // A name as a statement parameter: bytes (the lock table), text (ShedLock's).
  virtual SqlParam name_param(const std::string& name) const { return SqlParam::bytes(name); }
  // The owner as the table stores it (ShedLock's locked_by adds the host).
  virtual std::string stored_owner(const std::string& owner) const { return owner; }
  // The owner field of a stored owner (stored_owner's inverse where it can be).
  virtual std::string holder_of(const std::string& stored) const { return stored; }
  // The release statement's parameters in the order its text takes them
  // (MySQL's '?' are positional).
  virtual std::vector<SqlParam> release_params(const std::string& name, const std::string& stored_owner,
                                               const std::string& grant,
                                               std::chrono::milliseconds keep) const = 0;

 private:
  std::string table_;
  RowStatements statements_;
};

// The statements of `dialect`'s servers on `table` (SqlUrl::table, already
// checked): ShedLock's layout for the table named "shedlock", else dlock's.
std::unique_ptr<LeaseDialect> lease_dialect(SqlDialect dialect, const std::string& table);

}  // namespace sql
}  // namespace dlock
