#include "shedlock_jdbc_build.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>
#include <stdexcept>

#include "child_process.hpp"
#include "locked_file.hpp"
#include "program_output.hpp"

namespace dlock_test {
namespace {

bool on_path(const std::string& program) {
  return run_program({"sh", "-c", "command -v " + program}, std::chrono::seconds(10)).succeeded();
}

time_t modified(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? info.st_mtime : 0;
}

// The newest of the pom and the Java sources.
time_t sources_modified(const std::string& source_dir) {
  time_t newest = modified(source_dir + "/pom.xml");
  const std::string java_dir = source_dir + "/src/main/java/io/dlock/test";
  if (DIR* dir = opendir(java_dir.c_str())) {
    while (const dirent* entry = readdir(dir))
      newest = std::max(newest, modified(java_dir + "/" + entry->d_name));
    closedir(dir);
  }
  return newest;
}

}  // namespace

std::vector<std::string> ShedLockJdbcBuild::java(const std::string& main_class,
                                                 const std::vector<std::string>& args) const {
  std::vector<std::string> argv{"java", "-cp", classpath, "io.dlock.test." + main_class};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

ShedLockJdbcBuild build_shedlock_jdbc(const std::string& source_dir, const std::string& build_dir) {
  ShedLockJdbcBuild build;
  for (const char* tool : {"mvn", "java"}) {
    if (!on_path(tool)) build.missing += std::string(build.missing.empty() ? "" : ", ") + tool;
  }
  if (!build.missing.empty()) return build;
  // Test processes that CTest runs at once (one per server) build the jar
  // one after the other, the later ones finding it built.
  std::optional<LockedFile> lock;
  try {
    lock.emplace(build_dir + ".lock");
  } catch (const std::runtime_error& error) {
    build.build_failure = error.what();
    return build;
  }
  const time_t jar = modified(build_dir + "/shedlock-interop-1.jar");
  if (jar == 0 || jar < sources_modified(source_dir)) {
    const ProgramOutput mvn = run_program(
        {"mvn", "-B", "-q", "-f", source_dir + "/pom.xml", "package", "-Ddlock.build.dir=" + build_dir},
        std::chrono::minutes(10));
    if (!mvn.succeeded()) {
      build.build_failure = describe_wait_status(mvn.status) + ":\n" + mvn.output;
      return build;
    }
  }
  build.classpath = build_dir + "/classes:" + build_dir + "/lib/*";
  return build;
}

}  // namespace dlock_test
