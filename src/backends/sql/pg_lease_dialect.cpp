// The lease-mode statements on PostgreSQL 12+ (docs/design/backends.md 3.1,
// 3.3), the token from sql_token.
#include "backends/sql/pg_lease_dialect.hpp"

#include <algorithm>

#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

class PgLeaseDialect : public LeaseDialect {
 public:
  explicit PgLeaseDialect(const std::string& table)
      : LeaseDialect(
            table,
            {"SELECT owner, ceil(extract(epoch FROM lease_until - clock_timestamp()) * 1000)::bigint, token "
             "FROM " +
                 table + " WHERE name = $1 ORDER BY lease_until DESC LIMIT 1",
             "WITH r AS (UPDATE " + table +
                 " SET lease_until = clock_timestamp() + cast($4 as interval)"
                 " WHERE name = $1 AND owner = $2 AND token = $3::bigint AND lease_until > clock_timestamp()"
                 " RETURNING 1) SELECT pg_notify(" +
                 pg_release_channel(table, "$1") + ", '') FROM r",
             "WITH r AS (UPDATE " + table +
                 " SET lease_until = clock_timestamp()"
                 " WHERE name = $1 AND owner = $2 AND lease_until > clock_timestamp()"
                 " RETURNING 1) SELECT pg_notify(" +
                 pg_release_channel(table, "$1") + ", '') FROM r",
             "SELECT encode(name, 'hex') FROM " + table + " WHERE lease_until > clock_timestamp()",
             "WITH r AS (UPDATE " + table +
                 " SET lease_until = clock_timestamp() WHERE name = $1 AND lease_until > clock_timestamp()"
                 " RETURNING 1) SELECT pg_notify(" +
                 pg_release_channel(table, "$1") + ", '') FROM r",
             "UPDATE " + table +
                 " SET note = $1 WHERE name = $2 AND owner = $3 AND lease_until > clock_timestamp()",
             "SELECT note FROM " + table + " WHERE name = $1"}),
        acquire_(
            "WITH g AS ("
            " INSERT INTO " +
            table +
            " AS l (name, owner, lease_until, token)"
            " VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond', " +
            pg_next_token() +
            ")"
            " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until,"
            " token = GREATEST(EXCLUDED.token, l.token + 1) WHERE l.lease_until <= clock_timestamp()"
            " RETURNING l.token)"
            " SELECT true, token, NULL::text, NULL::bigint FROM g"
            " UNION ALL"
            " SELECT false, l.token, l.owner, ceil(extract(epoch FROM l.lease_until - clock_timestamp()) * "
            "1000)::bigint"
            " FROM " +
            table + " l WHERE l.name = $1 AND NOT EXISTS (SELECT 1 FROM g)"),
        renew_("UPDATE " + table +
               " SET lease_until = clock_timestamp() + $3::bigint * interval '1 millisecond'"
               " WHERE (name, token) IN (SELECT decode(n, 'hex'), t FROM unnest($1::text[], $2::bigint[]) AS "
               "u(n, t))"
               " AND left(owner, length($4)) = $4 AND lease_until > clock_timestamp() RETURNING token") {}

  std::vector<std::string> schema() const override {
    std::vector<std::string> statements = token_schema(SqlDialect::postgresql);
    statements.push_back(
        "CREATE TABLE IF NOT EXISTS " + table() +
        " (name bytea PRIMARY KEY CHECK (octet_length(name) BETWEEN 1 AND 1024),"
        " owner text NOT NULL, lease_until timestamptz NOT NULL, token bigint NOT NULL, note text)");
    return statements;
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::postgresql, table());
  }

  std::string grant(const std::string& user) const override {
    return "GRANT SELECT, INSERT, UPDATE, DELETE ON " + table() + " TO \"" + user + "\"; " +
           token_grant(SqlDialect::postgresql, user);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease) const override {
    return pg_lease_attempt(connection.execute(acquire_, {SqlParam::bytes(name), SqlParam::text(owner),
                                                          SqlParam::number(lease.count())}),
                            connection);
  }

  std::vector<std::uint64_t> renew(SqlConnection& connection, const std::string& client_id,
                                   const std::vector<LeaseHold>& holds,
                                   std::chrono::milliseconds lease) const override {
    if (holds.empty()) return {};
    std::string names = "{";
    std::string tokens = "{";
    for (const LeaseHold& hold : holds) {
      names += (names.size() > 1 ? "," : "") + hex_of(hold.name);
      tokens += (tokens.size() > 1 ? "," : "") + std::to_string(hold.token);
    }
    const SqlResult kept =
        connection.execute(renew_, {SqlParam::text(names + "}"), SqlParam::text(tokens + "}"),
                                    SqlParam::number(lease.count()), SqlParam::text(client_id + ":")});
    return first_column_unsigned(kept, connection);
  }

 protected:
  std::vector<SqlParam> release_params(const std::string& name, const std::string& owner,
                                       const std::string& grant,
                                       std::chrono::milliseconds keep) const override {
    return {SqlParam::bytes(name), SqlParam::text(owner), SqlParam::text(grant), pg_interval(keep)};
  }

 private:
  std::string acquire_;
  std::string renew_;
};

}  // namespace

std::string pg_release_channel(const std::string& table, const std::string& name_param) {
  return "'dlock_' || md5(convert_to('" + table + "', 'UTF8') || '\\x00'::bytea || " + name_param + ")";
}

LeaseAttempt pg_lease_attempt(const SqlResult& result, const SqlConnection& connection) {
  LeaseAttempt attempt;
  if (result.rows.empty()) return attempt;
  const SqlRow& row = result.rows.front();
  attempt.granted = boolean_of(row.at(0), connection);
  attempt.token = unsigned_of(row.at(1), connection);
  attempt.grant = std::to_string(attempt.token);
  if (!attempt.granted) {
    attempt.holder = row.at(2).value_or("");
    attempt.holder_lease_left =
        std::chrono::milliseconds(std::max<std::int64_t>(0, integer_of(row.at(3), connection)));
  }
  return attempt;
}

SqlParam pg_interval(std::chrono::milliseconds value) {
  return SqlParam::text(std::to_string(value.count()) + " milliseconds");
}

std::unique_ptr<LeaseDialect> pg_lease_dialect(const std::string& table) {
  return std::make_unique<PgLeaseDialect>(table);
}

}  // namespace sql
}  // namespace dlock
