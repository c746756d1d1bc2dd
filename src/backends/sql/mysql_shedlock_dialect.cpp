// ShedLock's table on MySQL 8 / MariaDB 10.6+: the statements of ShedLock
// 5.16's MySqlServerTimeStatementsSource, now being UTC_TIMESTAMP(3) and
// durations in microseconds. The grant is one round trip: ShedLock's INSERT
// IGNORE, then its update (which takes over a row whose lock_until passed),
// counting the rows each changed; then a token drawn only when one did (or
// the row is a live one of ours: a retry after a lost answer); then the row.
// The token is drawn right after the row's grant committed, so a name's
// tokens rise in grant order unless the grant's lease ended in between,
// which a lease of more than a few milliseconds rules out.
#include <algorithm>

#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/shedlock_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

const std::string kNow = "UTC_TIMESTAMP(3)";
const std::string kLockAtMostFor = "TIMESTAMPADD(MICROSECOND, ?, " + kNow + ")";

class MysqlShedLockDialect : public ShedLockDialect {
 public:
  MysqlShedLockDialect()
      : ShedLockDialect(
            {"SELECT locked_by, CEILING(TIMESTAMPDIFF(MICROSECOND, " + kNow +
                 ", lock_until) / 1000), NULL FROM shedlock WHERE name = ?",
             // ShedLock's unlock, its lockAtLeastFor the time since the grant
             // plus `keep`: the row stays locked `keep` from now, as on the lock table.
             "UPDATE shedlock SET lock_until = " + kLockAtMostFor +
                 " WHERE name = ? AND locked_by = ? AND locked_at = ? AND lock_until > " + kNow,
             // ShedLock's unlock with lockAtLeastFor 0, whatever the grant.
             "UPDATE shedlock SET lock_until = " + kNow +
                 " WHERE name = ? AND locked_by = ? AND lock_until > " + kNow,
             "SELECT HEX(name) FROM shedlock WHERE lock_until > " + kNow,
             "UPDATE shedlock SET lock_until = " + kNow + " WHERE name = ? AND lock_until > " + kNow}),
        acquire_("INSERT IGNORE INTO shedlock(name, lock_until, locked_at, locked_by) VALUES(?, " +
                 kLockAtMostFor + ", " + kNow +
                 ", ?);"
                 " SET @dlock_granted = ROW_COUNT();"
                 " UPDATE shedlock SET lock_until = " +
                 kLockAtMostFor + ", locked_at = " + kNow +
                 ", locked_by = ? WHERE name = ? AND lock_until <= " + kNow +
                 ";"
                 " SET @dlock_granted = @dlock_granted + ROW_COUNT(); " +
                 mysql_next_token("(@dlock_granted > 0 OR EXISTS (SELECT 1 FROM shedlock WHERE name = ? AND "
                                  "locked_by = ? AND lock_until > " +
                                  kNow + "))") +
                 ";"
                 " SELECT @dlock_granted, locked_by, locked_at, TIMESTAMPDIFF(MICROSECOND, " +
                 kNow +
                 ", lock_until), IF(ROW_COUNT() > 0, LAST_INSERT_ID(), 0) FROM shedlock WHERE name = ?") {}

  std::vector<std::string> schema() const override {
    std::vector<std::string> statements{
        "CREATE TABLE IF NOT EXISTS shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,"
        " locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL,"
        " PRIMARY KEY (name))"
        // ShedLock's statement names no character set; a latin1 server default
        // would refuse most UTF-8 names ("illegal mix of collations").
        " DEFAULT CHARSET=utf8mb4"};
    for (std::string& statement : token_schema(SqlDialect::mysql)) statements.push_back(std::move(statement));
    return statements;
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::mysql, table());
  }

  std::string grant(const std::string& user) const override {
    return "GRANT SELECT, INSERT, UPDATE ON shedlock TO '" + user + "'; " +
           token_grant(SqlDialect::mysql, user);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease) const override {
    const SqlParam locked_by = SqlParam::text(stored_owner(owner));
    const SqlResult result = connection.execute(
        acquire_, {name_param(name), mysql_microseconds(lease), locked_by, mysql_microseconds(lease),
                   locked_by, name_param(name), name_param(name), locked_by, name_param(name)});
    LeaseAttempt attempt;
    if (result.rows.empty()) return attempt;
    const SqlRow& row = result.rows.front();
    const std::string holder = row.at(1).value_or("");
    attempt.token = unsigned_of(row.at(4), connection);
    attempt.grant = row.at(2).value_or("");
    attempt.granted = integer_of(row.at(0), connection) > 0 && holder == locked_by.value;
    if (!attempt.granted) {
      attempt.holder = holder_of(holder);
      const std::int64_t left_us = integer_of(row.at(3), connection);
      attempt.holder_lease_left =
          std::chrono::milliseconds(std::max<std::int64_t>(0, (left_us + 999) / 1000));
    }
    return attempt;
  }

  // ShedLock's extend for every hold of the client at once.
  std::vector<std::uint64_t> renew(SqlConnection& connection, const std::string& client_id,
                                   const std::vector<LeaseHold>& holds,
                                   std::chrono::milliseconds lease) const override {
    if (holds.empty()) return {};
    std::vector<std::pair<SqlParam, SqlParam>> keys;
    for (const LeaseHold& hold : holds) keys.emplace_back(name_param(hold.name), SqlParam::text(hold.grant));
    const SqlResult kept =
        mysql_renew(connection, {table(), "locked_at", "locked_by", "lock_until", kNow, "name, locked_at"},
                    keys, stored_owner(client_id + ":"), lease);
    return renewed_tokens(holds, kept);
  }

 protected:
  std::vector<SqlParam> release_params(const std::string& name, const std::string& owner,
                                       const std::string& grant,
                                       std::chrono::milliseconds keep) const override {
    return {mysql_microseconds(keep), name_param(name), SqlParam::text(owner), SqlParam::text(grant)};
  }

 private:
  std::string acquire_;
};

}  // namespace

std::unique_ptr<LeaseDialect> mysql_shedlock_dialect() {
  return std::make_unique<MysqlShedLockDialect>();
}

}  // namespace sql
}  // namespace dlock
