// The Java programs beside dlock on ShedLock's table (tests/interop/shedlock_jdbc:
// ShedLockLoop, SchedulerLockService), built with mvn into a build directory,
// again when a source is newer than the jar. Used by test_sql_shedlock and by
// bench/sql/sql_bench's ShedLock reference.
#pragma once

#include <string>
#include <vector>

namespace dlock_test {

struct ShedLockJdbcBuild {
  std::string classpath;      // for java -cp, when built
  std::string missing;        // "mvn, java": the tools not on PATH
  std::string build_failure;  // mvn's status and output

  bool built() const { return !classpath.empty(); }
  // java -cp CLASSPATH io.dlock.test.MAIN_CLASS args...
  std::vector<std::string> java(const std::string& main_class, const std::vector<std::string>& args) const;
};

ShedLockJdbcBuild build_shedlock_jdbc(const std::string& source_dir, const std::string& build_dir);

}  // namespace dlock_test
