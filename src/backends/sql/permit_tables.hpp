// The leased-permit semaphore's tables in lease mode, one implementation per
// server kind (pg_permit_tables.cpp, mysql_permit_tables.cpp), whatever the
// URL's lock table: dlock_semaphore (a name's permits, set once) and
// dlock_semaphore_lease (one row per lease: name, owner, lease_until, token,
// as the lock table's, keyed by (name, token)). A lease row is the lock
// table's row in all but its key, so the lock table's statements serve it
// (rows(): release, withdraw, the keeper's renewal, lease_left); only taking
// a lease differs.
//
// Taking a lease counts the name's live leases and inserts one more when
// they are fewer than the permits. Counting and inserting in one statement
// would race under READ COMMITTED (two statements' snapshots both see N-1
// leases), so each take is a transaction that first locks the name's
// dlock_semaphore row (SELECT ... FOR UPDATE): takes of one name run one
// after the other, each counting after the last one committed; other names
// and renewals are not held up. The row exists once the permits are set,
// which every take checks first.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_url.hpp"

namespace dlock {
namespace sql {

class PermitTables {
 public:
  virtual ~PermitTables() = default;

  // The lease table's statements (its acquire is never used: acquire() is).
  const LeaseDialect& rows() const { return *rows_; }
  // CREATE ... IF NOT EXISTS statements, in order (the token's source is the
  // lock table's, created with it).
  virtual std::vector<std::string> schema() const = 0;
  virtual bool schema_exists(SqlConnection& connection) const = 0;

  // One take, in the shape LeaseDialect::acquire answers (a live lease of
  // `owner` already there is reported refused with `owner` as holder, for
  // attempt_lease to adopt): granted when `name` has fewer than `max_leases`
  // live leases. Refused: the holder of the lease that ends first and its
  // lease left. Throws ConnectionError, AuthError, ProtocolError (the
  // transaction rolled back).
  virtual LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                               std::chrono::milliseconds lease, int max_leases) const = 0;
  // The stored permits of `name`; nullopt while unset.
  std::optional<int> permits(SqlConnection& connection, const std::string& name) const;
  // Stores `permits` unless some are stored; whether it did.
  virtual bool try_set_permits(SqlConnection& connection, const std::string& name, int permits) const = 0;
  // The live leases of `name`.
  std::int64_t live_leases(SqlConnection& connection, const std::string& name) const;

 protected:
  PermitTables(std::unique_ptr<LeaseDialect> rows, std::string permits_query, std::string count_query)
      : rows_(std::move(rows)),
        permits_query_(std::move(permits_query)),
        count_query_(std::move(count_query)) {}

 private:
  const std::unique_ptr<LeaseDialect> rows_;
  const std::string permits_query_;
  const std::string count_query_;
};

constexpr const char* kSemaphoreTable = "dlock_semaphore";
constexpr const char* kSemaphoreLeaseTable = "dlock_semaphore_lease";

std::unique_ptr<PermitTables> permit_tables(SqlDialect dialect);
std::unique_ptr<PermitTables> pg_permit_tables();
std::unique_ptr<PermitTables> mysql_permit_tables();

// Runs `statements` in one transaction on `connection`, the last one's result
// returned; a statement refused rolls it back (a broken connection ends it).
// A transaction the server rolled back to break a deadlock is run again, up
// to 3 runs in all.
SqlResult in_transaction(SqlConnection& connection,
                         const std::vector<std::pair<std::string, std::vector<SqlParam>>>& statements);

}  // namespace sql
}  // namespace dlock
