// The SQL backend (core/backend.hpp): the reentrant lock on a lock table in
// lease mode (dlock's table, or ShedLock's with table=shedlock), each name
// behind a SqlLockOps on the client's session of the moment, and the
// leased-permit semaphore on dlock's semaphore tables (sql_permit_leases), and
// elections (sql_election_ops).
// The other lock kinds are not served (the project's specification, section 12).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/sql/sql_lock_ops.hpp"
#include "core/backend.hpp"
#include "core/client.hpp"

namespace dlock {

class SqlBackend final : public Backend {
 public:
  // `scheme`: "postgresql" or "mysql" (sql::scheme_of).
  SqlBackend(std::shared_ptr<Client> client, const char* scheme)
      : client_(std::move(client)), scheme_(scheme) {}

  const char* scheme() const override { return scheme_; }
  // Throws UnsupportedError naming the backend for a kind but the reentrant lock.
  std::shared_ptr<LockOps> lock(const std::string& name, LockKind kind) override;
  // The names of the table whose lease is live.
  std::vector<std::string> list_locks(const std::string& prefix) override;
  // Throws UnsupportedError naming the backend and the option with table=shedlock.
  std::shared_ptr<PermitLeases> permit_leases(const std::string& name) override;
  // On dlock's lock table in lease mode (SqlElectionOps); UnsupportedError
  // naming the option with table=shedlock or mode=session.
  std::shared_ptr<ElectionOps> election(const std::string& name) override;

 private:
  SqlLockOps::SessionOf session_of() const;

  const std::shared_ptr<Client> client_;
  const char* const scheme_;
};

}  // namespace dlock
