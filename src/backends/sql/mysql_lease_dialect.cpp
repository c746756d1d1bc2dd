// The lease-mode statements on MySQL 8 / MariaDB 10.6+ (docs/design/backends.md
// 3.1-3.3): InnoDB rows, UTC_TIMESTAMP(6) as the server's clock, the token from
// the one-row dlock_token under its row lock (MySQL has no sequences), each
// call one round trip of one or more statements.
#include "backends/sql/mysql_lease_dialect.hpp"

#include <algorithm>

#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

class MysqlLeaseDialect : public LeaseDialect {
 public:
  explicit MysqlLeaseDialect(const std::string& table)
      : LeaseDialect(
            table,
            {"SELECT owner, CEILING(TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), lease_until) / 1000),"
             " token FROM " +
                 table + " WHERE name = ? ORDER BY lease_until DESC LIMIT 1",
             "UPDATE " + table +
                 " SET lease_until = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND"
                 " WHERE name = ? AND owner = ? AND token = ? AND lease_until > UTC_TIMESTAMP(6)",
             "UPDATE " + table +
                 " SET lease_until = UTC_TIMESTAMP(6)"
                 " WHERE name = ? AND owner = ? AND lease_until > UTC_TIMESTAMP(6)",
             "SELECT HEX(name) FROM " + table + " WHERE lease_until > UTC_TIMESTAMP(6)",
             "UPDATE " + table +
                 " SET lease_until = UTC_TIMESTAMP(6) WHERE name = ? AND lease_until > UTC_TIMESTAMP(6)",
             "UPDATE " + table +
                 " SET note = ? WHERE name = ? AND owner = ? AND lease_until > UTC_TIMESTAMP(6)",
             "SELECT note FROM " + table + " WHERE name = ?"}),
        // The token first (it commits on its own and burns a value when the
        // grant is refused, which does no harm); then the insert, assigning
        // lease_until last since MySQL evaluates ON DUPLICATE KEY UPDATE
        // left to right on the updated row, and a token above the row's
        // last one (a token taken before a later grant's cannot go below
        // it); then the row as it now is.
        acquire_(
            mysql_next_token("TRUE") + "; INSERT INTO " + table +
            " (name, owner, lease_until, token)"
            " VALUES (?, ?, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, LAST_INSERT_ID())"
            " ON DUPLICATE KEY UPDATE"
            " token = IF(lease_until <= UTC_TIMESTAMP(6), GREATEST(VALUES(token), token + 1), token),"
            " owner = IF(lease_until <= UTC_TIMESTAMP(6), VALUES(owner), owner),"
            " lease_until = IF(lease_until <= UTC_TIMESTAMP(6), VALUES(lease_until), lease_until);"
            " SELECT owner, token, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), lease_until), ROW_COUNT()"
            " FROM " +
            table + " WHERE name = ?") {}

  std::vector<std::string> schema() const override {
    std::vector<std::string> statements{
        "CREATE TABLE IF NOT EXISTS " + table() +
        " (name VARBINARY(1024) NOT NULL PRIMARY KEY, owner VARCHAR(128) CHARACTER SET ascii NOT NULL,"
        " lease_until DATETIME(6) NOT NULL, token BIGINT UNSIGNED NOT NULL, note TEXT NULL)"
        " ENGINE=InnoDB"};
    for (std::string& statement : token_schema(SqlDialect::mysql)) statements.push_back(std::move(statement));
    return statements;
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::mysql, table());
  }

  std::string grant(const std::string& user) const override {
    return "GRANT SELECT, INSERT, UPDATE, DELETE ON " + table() + " TO '" + user + "'; " +
           token_grant(SqlDialect::mysql, user);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease) const override {
    const SqlResult result = connection.execute(acquire_, {SqlParam::bytes(name), SqlParam::text(owner),
                                                           mysql_microseconds(lease), SqlParam::bytes(name)});
    return mysql_lease_attempt(result, owner, connection);
  }

  std::vector<std::uint64_t> renew(SqlConnection& connection, const std::string& client_id,
                                   const std::vector<LeaseHold>& holds,
                                   std::chrono::milliseconds lease) const override {
    if (holds.empty()) return {};
    std::vector<std::pair<SqlParam, SqlParam>> keys;
    for (const LeaseHold& hold : holds) {
      keys.emplace_back(SqlParam::bytes(hold.name), SqlParam::text(std::to_string(hold.token)));
    }
    const SqlResult kept =
        mysql_renew(connection, {table(), "token", "owner", "lease_until", "UTC_TIMESTAMP(6)", "token"}, keys,
                    client_id + ":", lease);
    return first_column_unsigned(kept, connection);
  }

 protected:
  std::vector<SqlParam> release_params(const std::string& name, const std::string& owner,
                                       const std::string& grant,
                                       std::chrono::milliseconds keep) const override {
    return {mysql_microseconds(keep), SqlParam::bytes(name), SqlParam::text(owner), SqlParam::text(grant)};
  }

 private:
  std::string acquire_;
};

}  // namespace

LeaseAttempt mysql_lease_attempt(const SqlResult& result, const std::string& owner,
                                 const SqlConnection& connection) {
  LeaseAttempt attempt;
  if (result.rows.empty()) return attempt;
  const SqlRow& row = result.rows.front();
  const std::string holder = row.at(0).value_or("");
  attempt.token = unsigned_of(row.at(1), connection);
  attempt.grant = std::to_string(attempt.token);
  // ROW_COUNT() of the insert: 1 inserted, 2 taken over, 0 left as it was.
  attempt.granted = holder == owner && integer_of(row.at(3), connection) > 0;
  if (!attempt.granted) {
    attempt.holder = holder;
    const std::int64_t left_us = integer_of(row.at(2), connection);
    attempt.holder_lease_left = std::chrono::milliseconds(std::max<std::int64_t>(0, (left_us + 999) / 1000));
  }
  return attempt;
}

SqlParam mysql_microseconds(std::chrono::milliseconds value) {
  return SqlParam::text(std::to_string(value.count() * 1000));
}

SqlResult mysql_renew(SqlConnection& connection, const MysqlRenewal& renewal,
                      const std::vector<std::pair<SqlParam, SqlParam>>& keys, const std::string& owner_prefix,
                      std::chrono::milliseconds lease) {
  std::string key_list;
  std::vector<SqlParam> key_params;
  for (const auto& key : keys) {
    key_list += key_list.empty() ? "(?, ?)" : ", (?, ?)";
    key_params.push_back(key.first);
    key_params.push_back(key.second);
  }
  const std::string match = " WHERE (name, " + renewal.grant_column + ") IN (" + key_list + ") AND LEFT(" +
                            renewal.owner_column + ", CHAR_LENGTH(?)) = ? AND " + renewal.until_column +
                            " > ";
  std::vector<SqlParam> params{mysql_microseconds(lease)};
  for (int statement = 0; statement < 2; ++statement) {
    params.insert(params.end(), key_params.begin(), key_params.end());
    params.push_back(SqlParam::text(owner_prefix));
    params.push_back(SqlParam::text(owner_prefix));
  }
  params.push_back(mysql_microseconds(lease / 2));
  return connection.execute("UPDATE " + renewal.table + " SET " + renewal.until_column +
                                " = TIMESTAMPADD(MICROSECOND, ?, " + renewal.now + ")" + match + renewal.now +
                                "; SELECT " + renewal.returned + " FROM " + renewal.table + match +
                                "TIMESTAMPADD(MICROSECOND, ?, " + renewal.now + ")",
                            params);
}

std::unique_ptr<LeaseDialect> mysql_lease_dialect(const std::string& table) {
  return std::make_unique<MysqlLeaseDialect>(table);
}

}  // namespace sql
}  // namespace dlock
