#include "backends/sql/sql_permit_leases.hpp"

#include "backends/sql/sql_client_session.hpp"

namespace dlock {

SqlPermitLeases::SqlPermitLeases(SqlLockOps::SessionOf session, std::string name)
    : session_(std::move(session)),
      name_(std::move(name)),
      location_(std::string(sql::kSemaphoreTable) + "'s row of the name") {
  session_().permit_tables().rows().check_name(name_);
}

std::shared_ptr<LockOps> SqlPermitLeases::leases(int max_leases) {
  return std::make_shared<SqlLockOps>(session_, name_, SqlRows::permit_leases, max_leases);
}

std::optional<int> SqlPermitLeases::permits() {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.permit_tables().permits(*connection, name_);
}

bool SqlPermitLeases::try_set_permits(int permits) {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.permit_tables().try_set_permits(*connection, name_, permits);
}

int64_t SqlPermitLeases::leases_taken() {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.permit_tables().live_leases(*connection, name_);
}

}  // namespace dlock
