// The leased-permit semaphore's leases on PostgreSQL and MySQL, lease mode
// (core/permit_leases.hpp; the tables: permit_tables.hpp). The permits are
// dlock_semaphore's row of the name, set once; a permit is a row of
// dlock_semaphore_lease, taken, waited for, renewed by the watchdog's one
// statement and released through a SqlLockOps on SqlRows::permit_leases, as
// a lock's row is: the lease is the row's by the server's clock, a holder
// that died frees its permit at its lease end, the tokens are the lock's.
// ShedLock's table serves none (UnsupportedError naming the backend and
// table=shedlock).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/sql/sql_lock_ops.hpp"
#include "core/permit_leases.hpp"

namespace dlock {

class SqlPermitLeases final : public PermitLeases {
 public:
  // Throws InvalidArgument for a name the tables cannot hold, UnsupportedError
  // on ShedLock's table, AuthError when the tables are missing and the user
  // may not create them.
  SqlPermitLeases(SqlLockOps::SessionOf session, std::string name);

  const std::string& name() const override { return name_; }
  const std::string& permits_location() const override { return location_; }
  std::optional<int> permits() override;
  bool try_set_permits(int permits) override;
  int64_t leases_taken() override;
  std::shared_ptr<LockOps> leases(int max_leases) override;

 private:
  const SqlLockOps::SessionOf session_;
  const std::string name_;
  const std::string location_;
};

}  // namespace dlock
