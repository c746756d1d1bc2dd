#include "mariadb_server.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "redis_server.hpp"  // pick_free_port
#include "text_file.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

constexpr auto kStartupTimeout = std::chrono::seconds(60);
constexpr const char* kDebianServer = "/usr/sbin/mariadbd";

}  // namespace

MariaDbServer::MariaDbServer() {
  const char* server = std::getenv("DLOCK_TEST_MARIADBD");
  server_binary_ = server != nullptr && *server != '\0' ? server : kDebianServer;
  if (access(server_binary_.c_str(), X_OK) != 0) {
    throw std::runtime_error("no MariaDB server: " + server_binary_ +
                             " is missing (Debian's mariadb-server; scripts/deps.sh all installs it)");
  }
  dir_ = std::make_unique<TempDir>();
  data_ = dir_->file("data");
  log_ = dir_->file("mariadbd.log");
  port_ = pick_free_port();
  install();
  start();
  query(std::string("CREATE DATABASE ") + kDatabase);
  database_made_ = true;
}

MariaDbServer::~MariaDbServer() = default;

// Its own directory for temporary tables: in the shared /tmp, a parallel
// test's mariadb-install-db once failed deleting its own temporary table file.
std::string MariaDbServer::tmp_dir() const {
  return dir_->file("tmp");
}

void MariaDbServer::install() {
  std::filesystem::create_directories(tmp_dir());
  // auth-root-authentication-method=normal: root@127.0.0.1 without a password
  // (the default, unix_socket, serves no TCP client).
  const ProgramOutput made = run_program({"mariadb-install-db", "--no-defaults", "--datadir=" + data_,
                                          "--user=root", "--auth-root-authentication-method=normal",
                                          "--skip-test-db", "--skip-name-resolve", "--tmpdir=" + tmp_dir()},
                                         std::chrono::seconds(60));
  if (!made.succeeded()) {
    throw std::runtime_error("MariaDbServer: mariadb-install-db failed (" +
                             describe_wait_status(made.status) + "): " + made.output);
  }
}

void MariaDbServer::start() {
  // A small buffer pool and no flush per commit: quick to start, and a
  // SIGKILL of the server loses nothing the kernel holds.
  server_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{server_binary_, "--no-defaults", "--datadir=" + data_,
                               "--bind-address=127.0.0.1", "--port=" + std::to_string(port_),
                               "--socket=" + dir_->file("s"), "--pid-file=" + dir_->file("mariadbd.pid"),
                               "--user=root", "--skip-log-bin", "--skip-name-resolve",
                               "--innodb-buffer-pool-size=16M", "--innodb-flush-log-at-trx-commit=2",
                               "--max-connections=200", "--tmpdir=" + tmp_dir()},
      log_);
  const bool serving = wait_until([&] { return !server_->running() || try_query("SELECT 1").succeeded(); },
                                  std::chrono::duration_cast<std::chrono::milliseconds>(kStartupTimeout));
  if (!serving || !server_->running()) {
    throw std::runtime_error("MariaDB on port " + std::to_string(port_) + " did not start (" + log_ +
                             "):" + last_lines(log_, 8));
  }
}

std::string MariaDbServer::url(const std::string& user, const std::string& password) const {
  return "mysql://" + user + (password.empty() ? "" : ":" + password) +
         "@127.0.0.1:" + std::to_string(port_) + "/" + kDatabase;
}

ProgramOutput MariaDbServer::try_query(const std::string& sql, const std::string& user,
                                       const std::string& password) {
  std::vector<std::string> argv{"mariadb",
                                "--no-defaults",
                                "--protocol=tcp",
                                "-h",
                                "127.0.0.1",
                                "-P",
                                std::to_string(port_),
                                "-u",
                                user,
                                "-N",
                                "-B",
                                "-e",
                                sql};
  if (!password.empty()) argv.push_back("--password=" + password);
  if (database_made_) argv.push_back(std::string("--database=") + kDatabase);
  return run_program(argv);
}

std::string MariaDbServer::query(const std::string& sql, const std::string& user,
                                 const std::string& password) {
  ProgramOutput answer = try_query(sql, user, password);
  if (!answer.succeeded()) {
    throw std::runtime_error("mariadb as " + user + " on port " + std::to_string(port_) + ": " + sql + ": " +
                             answer.output);
  }
  while (!answer.output.empty() && answer.output.back() == '\n') answer.output.pop_back();
  return answer.output;
}

void MariaDbServer::kill_connection(unsigned long connection_id) {
  query("KILL CONNECTION " + std::to_string(connection_id));
}

void MariaDbServer::kill9() {
  if (server_->running()) server_->kill_and_reap();
}

void MariaDbServer::restart() {
  kill9();
  start();
}

}  // namespace dlock_test
