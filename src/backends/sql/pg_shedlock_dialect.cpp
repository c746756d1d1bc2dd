// ShedLock's table on PostgreSQL: the statements of ShedLock 5.16's
// PostgresSqlServerTimeStatementsSource, now being timezone('utc',
// CURRENT_TIMESTAMP) and durations "N milliseconds" cast to interval, as
// ShedLock sends them. The grant is one statement: ShedLock's insert (ON
// CONFLICT takes over a row whose lock_until passed) RETURNING locked_at,
// the token drawn under the row's lock, so a name's tokens rise in grant
// order; else the row as it is.
#include <algorithm>

#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/shedlock_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

const std::string kNow = "timezone('utc', CURRENT_TIMESTAMP)";

// The live row's lock_until as whole milliseconds from now.
const std::string kLeft = "ceil(extract(epoch FROM lock_until - " + kNow + ") * 1000)::bigint";

class PgShedLockDialect : public ShedLockDialect {
 public:
  PgShedLockDialect()
      : ShedLockDialect(
            {"SELECT locked_by, " + kLeft + ", NULL::bigint FROM shedlock WHERE name = $1",
             // ShedLock's unlock, its lockAtLeastFor the time since the grant
             // plus $4: the row stays locked $4 from now, as on the lock table.
             "UPDATE shedlock SET lock_until = " + kNow +
                 " + cast($4 as interval)"
                 " WHERE name = $1 AND locked_by = $2 AND locked_at = $3::timestamp AND lock_until > " +
                 kNow,
             // ShedLock's unlock with lockAtLeastFor 0, whatever the grant.
             "UPDATE shedlock SET lock_until = " + kNow +
                 " WHERE name = $1 AND locked_by = $2 AND lock_until > " + kNow,
             "SELECT encode(convert_to(name, 'UTF8'), 'hex') FROM shedlock WHERE lock_until > " + kNow,
             "UPDATE shedlock SET lock_until = " + kNow + " WHERE name = $1 AND lock_until > " + kNow}),
        acquire_("WITH g AS (INSERT INTO shedlock(name, lock_until, locked_at, locked_by) VALUES($1, " +
                 kNow + " + cast($2 as interval), " + kNow +
                 ", $3) ON CONFLICT (name) DO UPDATE SET lock_until = " + kNow +
                 " + cast($2 as interval), locked_at = " + kNow +
                 ", locked_by = $3 WHERE shedlock.name = $1 AND shedlock.lock_until <= " + kNow +
                 " RETURNING locked_at)"
                 " SELECT true, " +
                 pg_next_token() +
                 ", locked_at::text, NULL::text, NULL::bigint FROM g"
                 " UNION ALL"
                 // A live row of ours (a retry after a lost answer) gets a
                 // new token: ShedLock's table keeps none.
                 " SELECT false, CASE WHEN locked_by = $3 AND lock_until > " +
                 kNow + " THEN " + pg_next_token() + " ELSE 0 END, locked_at::text, locked_by, " + kLeft +
                 " FROM shedlock WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM g)"),
        // ShedLock's extend for every hold of the client at once.
        renew_("UPDATE shedlock SET lock_until = " + kNow +
               " + cast($3 as interval) WHERE (name, locked_at) IN (SELECT convert_from(decode(n, 'hex'), "
               "'UTF8'),"
               " a::timestamp FROM unnest($1::text[], $2::text[]) AS u(n, a))"
               " AND left(locked_by, length($4)) = $4 AND lock_until > " +
               kNow + " RETURNING name, locked_at::text") {}

  std::vector<std::string> schema() const override {
    std::vector<std::string> statements = token_schema(SqlDialect::postgresql);
    statements.push_back(
        "CREATE TABLE IF NOT EXISTS shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
        " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
    return statements;
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::postgresql, table());
  }

  std::string grant(const std::string& user) const override {
    return "GRANT SELECT, INSERT, UPDATE ON shedlock TO \"" + user + "\"; " +
           token_grant(SqlDialect::postgresql, user);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease) const override {
    const SqlResult result = connection.execute(
        acquire_, {name_param(name), pg_interval(lease), SqlParam::text(stored_owner(owner))});
    LeaseAttempt attempt;
    if (result.rows.empty()) return attempt;
    const SqlRow& row = result.rows.front();
    attempt.granted = boolean_of(row.at(0), connection);
    attempt.token = unsigned_of(row.at(1), connection);
    attempt.grant = row.at(2).value_or("");
    if (!attempt.granted) {
      attempt.holder = holder_of(row.at(3).value_or(""));
      attempt.holder_lease_left =
          std::chrono::milliseconds(std::max<std::int64_t>(0, integer_of(row.at(4), connection)));
    }
    return attempt;
  }

  std::vector<std::uint64_t> renew(SqlConnection& connection, const std::string& client_id,
                                   const std::vector<LeaseHold>& holds,
                                   std::chrono::milliseconds lease) const override {
    if (holds.empty()) return {};
    std::string names = "{";
    std::string grants = "{";
    for (const LeaseHold& hold : holds) {
      names += (names.size() > 1 ? "," : "") + hex_of(hold.name);
      grants += (grants.size() > 1 ? ",\"" : "\"") + hold.grant + "\"";
    }
    const SqlResult kept =
        connection.execute(renew_, {SqlParam::text(names + "}"), SqlParam::text(grants + "}"),
                                    pg_interval(lease), SqlParam::text(stored_owner(client_id + ":"))});
    return renewed_tokens(holds, kept);
  }

 protected:
  std::vector<SqlParam> release_params(const std::string& name, const std::string& owner,
                                       const std::string& grant,
                                       std::chrono::milliseconds keep) const override {
    return {name_param(name), SqlParam::text(owner), SqlParam::text(grant), pg_interval(keep)};
  }

 private:
  std::string acquire_;
  std::string renew_;
};

}  // namespace

std::unique_ptr<LeaseDialect> pg_shedlock_dialect() {
  return std::make_unique<PgShedLockDialect>();
}

}  // namespace sql
}  // namespace dlock
