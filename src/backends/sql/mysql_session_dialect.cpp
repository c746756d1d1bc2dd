// Session locks on MySQL 8 / MariaDB 10.6+: GET_LOCK on "dlock:" + hex
// SHA-1(table NUL name), 46 characters (MySQL's limit is 64). One round trip
// takes the lock and, only when it was taken, draws the token.
#include "backends/sql/session_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

class MysqlSessionDialect : public SessionDialect {
 public:
  explicit MysqlSessionDialect(const std::string& table)
      : SessionDialect(table),
        key_("CONCAT('dlock:', SHA1(CONCAT(CAST('" + table + "' AS BINARY), X'00', ?)))"),
        try_lock_("SELECT GET_LOCK(" + key_ + ", 0) INTO @dlock_got; " + mysql_next_token("@dlock_got = 1") +
                  "; SELECT @dlock_got, IF(ROW_COUNT() > 0, LAST_INSERT_ID(), 0)"),
        unlock_("SELECT RELEASE_LOCK(" + key_ + ")"),
        locked_("SELECT IS_USED_LOCK(" + key_ + ") IS NOT NULL") {}

  SessionAttempt try_lock(SqlConnection& connection, const std::string& name) const override {
    const SqlResult result = connection.execute(try_lock_, {SqlParam::bytes(name)});
    const SqlRow& row = result.rows.at(0);
    SessionAttempt attempt;
    attempt.granted = row.at(0).has_value() && integer_of(row.at(0), connection) == 1;
    if (attempt.granted) attempt.token = unsigned_of(row.at(1), connection);
    return attempt;
  }

  // RELEASE_LOCK: 1 released, 0 another session's, NULL nobody's.
  bool unlock(SqlConnection& connection, const std::string& name) const override {
    const SqlValue released = connection.execute(unlock_, {SqlParam::bytes(name)}).rows.at(0).at(0);
    return released.has_value() && integer_of(released, connection) == 1;
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

std::unique_ptr<SessionDialect> mysql_session_dialect(const std::string& table) {
  return std::make_unique<MysqlSessionDialect>(table);
}

}  // namespace sql
}  // namespace dlock
