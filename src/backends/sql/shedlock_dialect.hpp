// A lease lock whose rows are ShedLock's (docs/design/backends.md 3.6), so
// Spring's @SchedulerLock (ShedLock 5.16, JdbcTemplateLockProvider with
// usingDbTime()) and dlock exclude each other on one name: the table
// shedlock(name, lock_until, locked_at, locked_by), and exactly ShedLock's
// DB-time statements (its insert, update, unlock and extend), each with
// `AND locked_at = <our grant's>` where dlock matches a hold, so a grant is
// identified by its locked_at. locked_by is "<host>/dlock/<owner field>",
// trimmed to 255. A release is ShedLock's unlock (lockAtLeastFor = `keep`),
// never a DELETE: ShedLock only ever UPDATEs a row it once inserted, and a
// deleted row would stop its job for good. The fencing token comes from
// sql_token (ShedLock's own runs carry none); ShedLock never NOTIFYs, so
// waiters back off, never past the row's lock_until.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The table name (`?table=shedlock`) that picks ShedLock's layout.
constexpr const char* kShedLockTable = "shedlock";

class ShedLockDialect : public LeaseDialect {
 public:
  // Names are ShedLock's VARCHAR(64): UTF-8, 1 to 64 characters.
  void check_name(const std::string& name) const override;

 protected:
  explicit ShedLockDialect(RowStatements statements);

  SqlParam name_param(const std::string& name) const override { return SqlParam::text(name); }
  std::string stored_owner(const std::string& owner) const override;
  // The owner field of a locked_by dlock wrote on this host; any other
  // locked_by (ShedLock's, another host's dlock) as it is.
  std::string holder_of(const std::string& locked_by) const override;
  // The tokens of `holds` whose (name, grant) the server returned as renewed.
  static std::vector<std::uint64_t> renewed_tokens(const std::vector<LeaseHold>& holds,
                                                   const SqlResult& kept);

 private:
  std::string locked_by_prefix_;  // "<host>/dlock/"
};

// ShedLock's layout on `dialect`'s servers.
std::unique_ptr<LeaseDialect> shedlock_dialect(SqlDialect dialect);
std::unique_ptr<LeaseDialect> pg_shedlock_dialect();
std::unique_ptr<LeaseDialect> mysql_shedlock_dialect();

}  // namespace sql
}  // namespace dlock
