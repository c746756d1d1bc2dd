#include "backends/sql/sql_backend.hpp"

#include "backends/sql/sql_client_session.hpp"
#include "backends/sql/sql_election_ops.hpp"
#include "backends/sql/sql_lock_ops.hpp"
#include "backends/sql/sql_permit_leases.hpp"
#include "backends/sql/sql_session_lock_ops.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

const char* kind_name(LockKind kind) {
  switch (kind) {
    case LockKind::fair:
      return "fair lock";
    case LockKind::read:
    case LockKind::write:
      return "read-write lock";
    case LockKind::nonreentrant:
      return "non-reentrant lock";
    case LockKind::reentrant:
      break;
  }
  return "lock";
}

}  // namespace

std::shared_ptr<LockOps> SqlBackend::lock(const std::string& name, LockKind kind) {
  if (kind != LockKind::reentrant) {
    throw UnsupportedError("the " + std::string(scheme_) + " backend does not serve the " + kind_name(kind));
  }
  if (sql_session(*client_->core()).session_mode())
    return std::make_shared<SqlSessionLockOps>(session_of(), name);
  return std::make_shared<SqlLockOps>(session_of(), name);
}

std::vector<std::string> SqlBackend::list_locks(const std::string& prefix) {
  SqlClientSession& session = sql_session(*client_->core());
  sql::SqlPool::Lease connection = session.pool().take();
  return session.dialect().live_names(*connection, prefix);
}

std::shared_ptr<PermitLeases> SqlBackend::permit_leases(const std::string& name) {
  return std::make_shared<SqlPermitLeases>(session_of(), name);
}

std::shared_ptr<ElectionOps> SqlBackend::election(const std::string& name) {
  return std::make_shared<SqlElectionOps>(session_of(), name);
}

SqlLockOps::SessionOf SqlBackend::session_of() const {
  // Each call finds the session of the client's core of the moment: a
  // handle's ops serve a fork()ed child on the child's own session.
  return [client = client_]() -> SqlClientSession& { return sql_session(*client->core()); };
}

}  // namespace dlock
