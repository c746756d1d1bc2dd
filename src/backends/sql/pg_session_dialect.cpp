// Session locks on PostgreSQL: pg_try_advisory_lock on a bigint key, the
// first 8 bytes of SHA-256(table NUL name) (sha256() is PostgreSQL 11+).
// The grant draws its token only when the lock was taken; the release
// notifies the name's channel (pg_listener), as a lease-mode release does.
#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/session_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

class PgSessionDialect : public SessionDialect {
 public:
  explicit PgSessionDialect(const std::string& table)
      : SessionDialect(table),
        key_("('x' || left(encode(sha256(convert_to('" + table +
             "', 'UTF8') || '\\x00'::bytea || $1::bytea), 'hex'), 16))::bit(64)::bigint"),
        try_lock_("SELECT CASE WHEN pg_try_advisory_lock(" + key_ + ") THEN " + pg_next_token() + " END"),
        unlock_("SELECT pg_advisory_unlock(" + key_ + "), pg_notify(" +
                pg_release_channel(table, "$1::bytea") + ", '')"),
        locked_(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND"
            " objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = " +
            key_ + ")") {}

  SessionAttempt try_lock(SqlConnection& connection, const std::string& name) const override {
    const SqlResult result = connection.execute(try_lock_, {SqlParam::bytes(name)});
    SessionAttempt attempt;
    const SqlValue& token = result.rows.at(0).at(0);
    attempt.granted = token.has_value();
    if (attempt.granted) attempt.token = unsigned_of(token, connection);
    return attempt;
  }

  bool unlock(SqlConnection& connection, const std::string& name) const override {
    return boolean_of(connection.execute(unlock_, {SqlParam::bytes(name)}).rows.at(0).at(0), connection);
  }

  bool locked(SqlConnection& connection, const std::string& name) const override {
    return boolean_of(connection.execute(locked_, {SqlParam::bytes(name)}).rows.at(0).at(0), connection);
  }

 private:
  std::string key_;
  std::string try_lock_;
  std::string unlock_;
  std::string locked_;
};

}  // namespace

std::unique_ptr<SessionDialect> pg_session_dialect(const std::string& table) {
  return std::make_unique<PgSessionDialect>(table);
}

}  // namespace sql
}  // namespace dlock
