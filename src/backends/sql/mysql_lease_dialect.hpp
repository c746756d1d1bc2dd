#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The lease-mode statements on MySQL 8 / MariaDB 10.6+, on `table`.
std::unique_ptr<LeaseDialect> mysql_lease_dialect(const std::string& table);

// A duration as `INTERVAL ? MICROSECOND` and TIMESTAMPADD(MICROSECOND, ?, ..) take it.
SqlParam mysql_microseconds(std::chrono::milliseconds value);

// An acquire's answer: the row as it now is (owner, token, microseconds of
// its lease left, ROW_COUNT() of the insert), granted when it is `owner`'s
// and the insert changed it.
LeaseAttempt mysql_lease_attempt(const SqlResult& result, const std::string& owner,
                                 const SqlConnection& connection);

// Renewal of many holds on MySQL in one round trip, for both table layouts:
// `UPDATE table SET until = now + lease WHERE (name, grant_column) IN (keys)
// AND the owner column starts with `owner_prefix` AND until > now`, then the
// `returned` columns of those rows whose `until` now reaches past half the
// new lease: the ones the update extended (MySQL's UPDATE returns no rows).
struct MysqlRenewal {
  std::string table;
  std::string grant_column;  // token, locked_at
  std::string owner_column;  // owner, locked_by
  std::string until_column;  // lease_until, lock_until
  std::string now;           // UTC_TIMESTAMP(6), UTC_TIMESTAMP(3)
  std::string returned;      // the columns the SELECT returns
};
SqlResult mysql_renew(SqlConnection& connection, const MysqlRenewal& renewal,
                      const std::vector<std::pair<SqlParam, SqlParam>>& keys, const std::string& owner_prefix,
                      std::chrono::milliseconds lease);

}  // namespace sql
}  // namespace dlock
