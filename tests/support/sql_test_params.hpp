// The servers a SQL backend test is parametrised over: those whose client
// library this build has, as the backend's DLOCK_SQL_WITH_* definitions say
// in the including test (the library needs one), and their names as the
// tests' suffixes (/postgresql, /mariadb).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sql_test_server.hpp"

namespace dlock_test {

inline std::vector<SqlServerKind> built_sql_servers() {
  std::vector<SqlServerKind> kinds;
#if DLOCK_SQL_WITH_POSTGRESQL
  kinds.push_back(SqlServerKind::postgresql);
#endif
#if DLOCK_SQL_WITH_MYSQL
  kinds.push_back(SqlServerKind::mariadb);
#endif
  return kinds;
}

inline std::string sql_server_name(const ::testing::TestParamInfo<SqlServerKind>& info) {
  return kind_name(info.param);
}

}  // namespace dlock_test
