// The leased-permit semaphore's tables on PostgreSQL (permit_tables.hpp), the
// token from sql_token as the lock's.
#include "backends/sql/permit_tables.hpp"
#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/sql_token.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {
namespace {

const std::string kSemaphores = kSemaphoreTable;
const std::string kLeases = kSemaphoreLeaseTable;

class PgPermitTables final : public PermitTables {
 public:
  PgPermitTables()
      : PermitTables(
            pg_lease_dialect(kLeases), "SELECT permits FROM " + kSemaphores + " WHERE name = $1",
            "SELECT count(*) FROM " + kLeases + " WHERE name = $1 AND lease_until > clock_timestamp()"),
        // Run after the name's dlock_semaphore row is locked, so its snapshot
        // holds every take committed before: drops the name's ended leases,
        // inserts ours when the live ones are fewer than $4 and none is
        // ours, and answers our row, or else the lease that ends first.
        take_("WITH live AS (SELECT owner, token, lease_until FROM " + kLeases +
              " WHERE name = $1 AND lease_until > clock_timestamp()),"
              " ended AS (DELETE FROM " +
              kLeases +
              " WHERE name = $1 AND lease_until <= clock_timestamp()),"
              " g AS (INSERT INTO " +
              kLeases +
              " (name, owner, lease_until, token)"
              " SELECT $1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond', " +
              pg_next_token() +
              " WHERE (SELECT count(*) FROM live) < $4::int AND NOT EXISTS (SELECT 1 FROM live WHERE owner = "
              "$2)"
              " RETURNING token)"
              " SELECT true AS granted, token, NULL::text AS holder, NULL::bigint AS left_ms, true AS ours "
              "FROM g"
              " UNION ALL"
              " SELECT false, token, owner, ceil(extract(epoch FROM lease_until - clock_timestamp()) * "
              "1000)::bigint,"
              " owner = $2 FROM live WHERE NOT EXISTS (SELECT 1 FROM g)"
              " ORDER BY granted DESC, ours DESC, left_ms LIMIT 1") {}

  std::vector<std::string> schema() const override {
    return {"CREATE TABLE IF NOT EXISTS " + kSemaphores +
                " (name bytea PRIMARY KEY CHECK (octet_length(name) BETWEEN 1 AND 1024),"
                " permits integer NOT NULL CHECK (permits > 0))",
            "CREATE TABLE IF NOT EXISTS " + kLeases +
                " (name bytea NOT NULL, owner text NOT NULL, lease_until timestamptz NOT NULL,"
                " token bigint NOT NULL, note text, PRIMARY KEY (name, token))"};
  }

  bool schema_exists(SqlConnection& connection) const override {
    return table_and_token_exist(connection, SqlDialect::postgresql, kSemaphores) &&
           table_and_token_exist(connection, SqlDialect::postgresql, kLeases);
  }

  LeaseAttempt acquire(SqlConnection& connection, const std::string& name, const std::string& owner,
                       std::chrono::milliseconds lease, int max_leases) const override {
    const SqlResult result = in_transaction(
        connection,
        {{"SELECT 1 FROM " + kSemaphores + " WHERE name = $1 FOR UPDATE", {SqlParam::bytes(name)}},
         {take_,
          {SqlParam::bytes(name), SqlParam::text(owner), SqlParam::number(lease.count()),
           SqlParam::number(max_leases)}}});
    return pg_lease_attempt(result, connection);
  }

  bool try_set_permits(SqlConnection& connection, const std::string& name, int permits) const override {
    return connection
               .execute("INSERT INTO " + kSemaphores +
                            " (name, permits) VALUES ($1, $2::int) ON CONFLICT DO NOTHING",
                        {SqlParam::bytes(name), SqlParam::number(permits)})
               .affected > 0;
  }

 private:
  const std::string take_;
};

}  // namespace

std::unique_ptr<PermitTables> pg_permit_tables() {
  return std::make_unique<PgPermitTables>();
}

}  // namespace sql
}  // namespace dlock
