// The MariaDbServer fixture (tests/support/mariadb_server.hpp): a throwaway
// MariaDB server that starts, answers, crashes, comes back and kills
// connections on demand, as the SQL backend's tests need it to.
#include <gtest/gtest.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>

#include "child_process.hpp"
#include "mariadb_server.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

bool process_gone(pid_t pid) {
  return kill(pid, 0) != 0 && errno == ESRCH;
}

TEST(MariaDbServer, StartsOnClaimedLoopbackPortAnswersAndStopsOnDestruction) {
  pid_t server_pid;
  {
    MariaDbServer server;
    server_pid = server.pid();
    EXPECT_EQ(server.query("SELECT 1 + 1"), "2");
    EXPECT_EQ(server.query("SELECT @@bind_address, @@port"), "127.0.0.1\t" + std::to_string(server.port()));
    EXPECT_EQ(server.query("SELECT DATABASE()"), MariaDbServer::kDatabase);
    EXPECT_EQ(server.query("SELECT LEFT(VERSION(), 5)"), "10.11");
    EXPECT_EQ(server.url(), "mysql://root@127.0.0.1:" + std::to_string(server.port()) + "/dlock");
    const ProgramOutput refused = server.try_query("SELECT * FROM no_such_table");
    EXPECT_FALSE(refused.succeeded());
    EXPECT_NE(refused.output.find("no_such_table"), std::string::npos) << refused.output;
  }
  EXPECT_TRUE(process_gone(server_pid));
}

TEST(MariaDbServer, UsersWithoutWriteRightsAreRefused) {
  MariaDbServer server;
  server.query(
      "CREATE TABLE t (v INT); CREATE USER reader@'%' IDENTIFIED BY 'pw'; GRANT SELECT ON dlock.t TO "
      "reader@'%'");
  EXPECT_EQ(server.query("SELECT COUNT(*) FROM t", "reader", "pw"), "0");
  const ProgramOutput refused = server.try_query("INSERT INTO t VALUES (1)", "reader", "pw");
  EXPECT_FALSE(refused.succeeded());
  EXPECT_NE(refused.output.find("denied"), std::string::npos) << refused.output;
}

TEST(MariaDbServer, Kill9AndRestartKeepCommittedData) {
  MariaDbServer server;
  server.query("CREATE TABLE t (v INT) ENGINE=InnoDB; INSERT INTO t VALUES (42)");
  const pid_t before = server.pid();
  server.kill9();
  EXPECT_FALSE(server.running());
  EXPECT_FALSE(server.try_query("SELECT 1").succeeded());
  server.restart();
  EXPECT_NE(server.pid(), before);
  EXPECT_EQ(server.query("SELECT v FROM t"), "42");
}

TEST(MariaDbServer, KillConnectionEndsThatConnectionOnly) {
  MariaDbServer server;
  ChildProcess session({"mariadb", "--no-defaults", "--protocol=tcp", "-h", "127.0.0.1", "-P",
                        std::to_string(server.port()), "-u", "root", "-e", "SELECT 'victim', SLEEP(60)"},
                       server.log_path() + ".victim");
  std::string id;
  ASSERT_TRUE(wait_until(
      [&] {
        id = server.query(
            "SELECT id FROM information_schema.processlist WHERE info LIKE 'SELECT ''victim''%'");
        return !id.empty();
      },
      std::chrono::seconds(10)));
  server.kill_connection(std::stoul(id));
  const auto status = session.wait_for(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value()) << "the client still runs after KILL CONNECTION";
  EXPECT_NE(describe_wait_status(*status), "exited with 0");
  EXPECT_EQ(server.query("SELECT 1"), "1");
}

}  // namespace
}  // namespace dlock_test
