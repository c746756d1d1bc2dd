#include "backends/sql/leader_table.hpp"

#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
LeaderTable::LeaderTable(SqlDialect dialect, std::string lock_table)
    : dialect_(dialect), lock_table_(std::move(lock_table)), table_(lock_table_ + "_leaders") {
  const std::string& locks = lock_table_;
  if (dialect_ == SqlDialect::postgresql) {
    const std::string live = " l.name = $1 AND l.token = $2::bigint AND l.lease_until > clock_timestamp()";
    record_ = "WITH r AS (INSERT INTO " + table_ +
              " AS r (name, term, value, since_ms)"
              " SELECT l.name, l.token, $3::bytea, (extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM " +
              locks + " l WHERE" + live +
              " ON CONFLICT (name) DO UPDATE SET term = EXCLUDED.term, value = EXCLUDED.value,"
              " since_ms = EXCLUDED.since_ms WHERE r.term < EXCLUDED.term RETURNING 1)"
              " SELECT pg_notify(" +
              pg_release_channel(locks, "$1") + ", '') FROM r";
    proclaim_ = "WITH r AS (UPDATE " + table_ + " r SET value = $3::bytea FROM " + locks +
                " l WHERE r.name = $1 AND r.term = $2::bigint AND" + live + " RETURNING 1) SELECT pg_notify(" +
                pg_release_channel(locks, "$1") + ", '') FROM r";
    read_ = "SELECT r.term, encode(r.value, 'hex'), r.since_ms FROM " + table_ + " r JOIN " + locks +
            " l ON l.name = r.name AND l.token = r.term WHERE r.name = $1 AND l.lease_until > clock_timestamp()";
  } else {
    const std::string live = " l.name = ? AND l.token = ? AND l.lease_until > UTC_TIMESTAMP(6)";
    // ON DUPLICATE KEY UPDATE assigns left to right: the term last, each
    // assignment comparing with the term as it was.
    const std::string higher = "term < VALUES(term)";
    record_ = "INSERT INTO " + table_ +
              " (name, term, value, since_ms)"
              " SELECT l.name, l.token, ?, CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED) FROM " +
              locks + " l WHERE" + live + " ON DUPLICATE KEY UPDATE value = IF(" + higher +
              ", VALUES(value), value), since_ms = IF(" + higher + ", VALUES(since_ms), since_ms), term = IF(" +
              higher + ", VALUES(term), term)";
    proclaim_ = "UPDATE " + table_ + " r JOIN " + locks +
                " l ON l.name = r.name AND l.token = r.term SET r.value = ?"
                " WHERE r.name = ? AND r.term = ? AND l.lease_until > UTC_TIMESTAMP(6)";
    read_ = "SELECT r.term, HEX(r.value), r.since_ms FROM " + table_ + " r JOIN " + locks +
            " l ON l.name = r.name AND l.token = r.term WHERE r.name = ? AND l.lease_until > UTC_TIMESTAMP(6)";
  }
}

std::vector<std::string> LeaderTable::schema() const {
  if (dialect_ == SqlDialect::postgresql) {
    return {"CREATE TABLE IF NOT EXISTS " + table_ +
            " (name bytea PRIMARY KEY, term bigint NOT NULL, value bytea NOT NULL, since_ms bigint NOT NULL)"};
  }
  return {"CREATE TABLE IF NOT EXISTS " + table_ +
          " (name VARBINARY(1024) NOT NULL PRIMARY KEY, term BIGINT UNSIGNED NOT NULL, value BLOB NOT NULL,"
          " since_ms BIGINT NOT NULL) ENGINE=InnoDB"};
}

bool LeaderTable::schema_exists(SqlConnection& connection) const {
  return table_and_token_exist(connection, dialect_, table_);
}

bool LeaderTable::record(SqlConnection& connection, const std::string& name, std::uint64_t term,
                         const std::string& value) const {
  const SqlParam term_param = SqlParam::number(static_cast<std::int64_t>(term));
  if (dialect_ == SqlDialect::postgresql) {
    return connection.execute(record_, {SqlParam::bytes(name), term_param, SqlParam::bytes(value)}).affected > 0;
  }
  // MySQL counts an inserted row 1, an updated one 2, one left as it was 0.
  return connection.execute(record_, {SqlParam::bytes(value), SqlParam::bytes(name), term_param}).affected > 0;
}

bool LeaderTable::proclaim(SqlConnection& connection, const std::string& name, std::uint64_t term,
                           const std::string& value) const {
  const SqlParam term_param = SqlParam::number(static_cast<std::int64_t>(term));
  if (dialect_ == SqlDialect::postgresql) {
    return connection.execute(proclaim_, {SqlParam::bytes(name), term_param, SqlParam::bytes(value)}).affected >
           0;
  }
  // Setting the value it has already changes no row: a proclaim of the same
  // value, which the leader's record tells from a lost term.
  if (connection.execute(proclaim_, {SqlParam::bytes(value), SqlParam::bytes(name), term_param}).affected > 0) {
    return true;
  }
  const std::optional<Leader> leading = read(connection, name);
  return leading && leading->term == term;
}

std::optional<Leader> LeaderTable::read(SqlConnection& connection, const std::string& name) const {
  const SqlResult result = connection.execute(read_, {SqlParam::bytes(name)});
  if (result.rows.empty()) return std::nullopt;
  const SqlRow& row = result.rows.front();
  Leader leader;
  leader.term = unsigned_of(row.at(0), connection);
  leader.value = bytes_of_hex(row.at(1).value_or(""));
  leader.since_ms = integer_of(row.at(2), connection);
  return leader;
}

}  // namespace sql
}  // namespace dlock
