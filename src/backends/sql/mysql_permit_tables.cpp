// The leased-permit semaphore's tables on MySQL 8 / MariaDB 10.6+
// (permit_tables.hpp): InnoDB rows, UTC_TIMESTAMP(6) as the server's clock,
// the token from dlock_token as the lock's.
#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/permit_tables.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

const std::string kSemaphores = kSemaphoreTable;
const std::string kLeases = kSemaphoreLeaseTable;

class MysqlPermitTables final : public PermitTables {
 public:
  MysqlPermitTables()
      : PermitTables(
            mysql_lease_dialect(kLeases), "SELECT permits FROM " + kSemaphores + " WHERE name = ?",
            "SELECT COUNT(*) FROM " + kLeases + " WHERE name = ? AND lease_until > UTC_TIMESTAMP(6)"),
        // After the name's dlock_semaphore row is locked: drops the name's
        // ended leases, counts the live ones and ours (a locking read: the
        // newest committed rows), draws a token and inserts our lease only
        // when they are fewer than the permits and none is ours, then
        // answers our row first, else the lease that ends first, with
        // ROW_COUNT() of the insert as LeaseDialect::acquire's does.
        take_("DELETE FROM " + kLeases +
              " WHERE name = ? AND lease_until <= UTC_TIMESTAMP(6);"
              " SELECT COUNT(*), COALESCE(SUM(owner = ?), 0) INTO @dlock_live, @dlock_ours FROM " +
              kLeases + " WHERE name = ? AND lease_until > UTC_TIMESTAMP(6) FOR UPDATE; " +
              mysql_next_token("@dlock_live < ? AND @dlock_ours = 0") + "; INSERT INTO " + kLeases +
              " (name, owner, lease_until, token)"
              " SELECT ?, ?, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, LAST_INSERT_ID() FROM DUAL"
              " WHERE @dlock_live < ? AND @dlock_ours = 0;"
              " SELECT owner, token, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), lease_until), ROW_COUNT()"
              " FROM " +
              kLeases +
              " WHERE name = ? AND lease_until > UTC_TIMESTAMP(6)"
              " ORDER BY owner = ? DESC, lease_until LIMIT 1") {}

  std::vector<std::string> schema() const override {
    return {"CREATE TABLE IF NOT EXISTS " + kSemaphores +
                " (name VARBINARY(1024) NOT NULL PRIMARY KEY, permits INT NOT NULL CHECK (permits > 0)) "
                "ENGINE=InnoDB",
            "CREATE TABLE IF NOT EXISTS " + kLeases +
                " (name VARBINARY(1024) NOT NULL, owner VARCHAR(128) CHARACTER SET ascii NOT NULL,"
                " lease_until DATETIME(6) NOT NULL, token BIGINT UNSIGNED NOT NULL, note VARCHAR(255) NULL,"
                " PRIMARY KEY (name, token)) ENGINE=InnoDB"};
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::mysql, kSemaphores) &&
           table_and_token_exist(connection, SqlDialect::mysql, kLeases);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease, int max_leases) const override {
    const SqlParam key = SqlParam::bytes(name);
    const SqlParam who = SqlParam::text(owner);
    const SqlParam max = SqlParam::number(max_leases);
    const SqlResult result = in_transaction(
        connection, {{"SELECT 1 FROM " + kSemaphores + " WHERE name = ? FOR UPDATE", {key}},
                     {take_, {key, who, key, max, key, who, mysql_microseconds(lease), max, key, who}}});
    return mysql_lease_attempt(result, owner, connection);
  }

  bool try_set_permits(SqlConnection& connection, const std::string& name, int permits) const override {
    return connection
               .execute("INSERT IGNORE INTO " + kSemaphores + " (name, permits) VALUES (?, ?)",
                        {SqlParam::bytes(name), SqlParam::number(permits)})
               .affected > 0;
  }

 private:
  const std::string take_;
};

}  // namespace

std::unique_ptr<PermitTables> mysql_permit_tables() {
  return std::make_unique<MysqlPermitTables>();
}

}  // namespace sql
}  // namespace dlock
