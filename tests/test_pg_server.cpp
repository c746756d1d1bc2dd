// The PgServer fixture (tests/support/pg_server.hpp): a throwaway PostgreSQL
// cluster that starts, answers, crashes, comes back and ends its connections
// on demand, as the SQL backend's tests need it to.
#include <gtest/gtest.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>

#include "child_process.hpp"
#include "pg_server.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

bool process_gone(pid_t pid) {
  return kill(pid, 0) != 0 && errno == ESRCH;
}

// A psql session kept open (\watch would end; a sleep holds it) that names itself.
std::vector<std::string> idle_session(const PgServer& server, const std::string& application) {
  return {"psql",
          "-X",
          "-q",
          "-h",
          "127.0.0.1",
          "-p",
          std::to_string(server.port()),
          "-U",
          PgServer::kSuperuser,
          "-d",
          std::string("dbname=") + PgServer::kDatabase + " application_name=" + application,
          "-c",
          "SELECT pg_sleep(60)"};
}

TEST(PgServer, StartsOnClaimedLoopbackPortAnswersAndStopsOnDestruction) {
  pid_t postmaster;
  int port;
  {
    PgServer server;
    postmaster = server.pid();
    port = server.port();
    EXPECT_EQ(server.query("SELECT 1 + 1"), "2");
    EXPECT_EQ(server.query("SHOW listen_addresses"), "127.0.0.1");
    EXPECT_EQ(server.query("SELECT inet_server_port()"), std::to_string(port));
    EXPECT_EQ(server.query("SELECT current_setting('server_version_num')::int / 10000"), "15");
    EXPECT_EQ(server.url(), "postgresql://postgres@127.0.0.1:" + std::to_string(port) + "/postgres");
    const ProgramOutput refused = server.try_query("SELECT * FROM no_such_table");
    EXPECT_FALSE(refused.succeeded());
    EXPECT_NE(refused.output.find("no_such_table"), std::string::npos) << refused.output;
  }
  EXPECT_TRUE(process_gone(postmaster));
}

TEST(PgServer, RolesWithoutWriteRightsAreRefused) {
  PgServer server;
  server.query("CREATE TABLE t (v int); CREATE ROLE reader LOGIN; GRANT SELECT ON t TO reader");
  EXPECT_EQ(server.query("SELECT count(*) FROM t", "reader"), "0");
  const ProgramOutput refused = server.try_query("INSERT INTO t VALUES (1)", "reader");
  EXPECT_FALSE(refused.succeeded());
  EXPECT_NE(refused.output.find("permission denied"), std::string::npos) << refused.output;
}

TEST(PgServer, Kill9EndsEveryServerProcessAndRestartKeepsCommittedData) {
  PgServer server;
  server.query("CREATE TABLE t (v int); INSERT INTO t VALUES (42)");
  const pid_t before = server.pid();
  const std::string backends = server.query("SELECT string_agg(pid::text, ' ') FROM pg_stat_activity");
  server.kill9();
  EXPECT_FALSE(server.running());
  EXPECT_FALSE(server.try_query("SELECT 1").succeeded());
  EXPECT_TRUE(wait_until(
      [&] {
        std::size_t start = 0;
        while (start < backends.size()) {
          std::size_t used = 0;
          if (!process_gone(static_cast<pid_t>(std::stol(backends.substr(start), &used)))) return false;
          start += used + 1;
        }
        return true;
      },
      std::chrono::seconds(5)))
      << "server processes left: " << backends;
  server.restart();
  EXPECT_NE(server.pid(), before);
  EXPECT_EQ(server.query("SELECT v FROM t"), "42");
}

TEST(PgServer, TerminateBackendEndsThatConnectionOnly) {
  PgServer server;
  ChildProcess session(idle_session(server, "victim"), server.log_path() + ".victim");
  std::string pid;
  ASSERT_TRUE(wait_until(
      [&] {
        pid = server.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'victim'");
        return !pid.empty();
      },
      std::chrono::seconds(10)));
  EXPECT_TRUE(server.terminate_backend(std::stoi(pid)));
  const auto status = session.wait_for(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value()) << "psql still running after its backend was terminated";
  EXPECT_NE(describe_wait_status(*status), "exited with 0");
  EXPECT_FALSE(server.terminate_backend(std::stoi(pid)));
  EXPECT_EQ(server.query("SELECT 1"), "1");
}

}  // namespace
}  // namespace dlock_test
