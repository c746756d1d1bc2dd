#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "program_output.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

// A throwaway PostgreSQL 15 cluster (Debian's postgresql-15; $DLOCK_TEST_PG_BINDIR
// names another bin directory) on a claimed loopback port, its data in a
// TempDir, made by initdb --auth=trust with the superuser role `postgres`.
// PostgreSQL refuses to run as root: a root test process runs initdb and the
// postmaster as the system user `dlockpg` (created when missing); another user
// runs them as itself. The postmaster is this process's child (setpriv execs
// it in place, so kill9() reaches it), killed on destruction. Construct,
// restart() and destroy it on the test's main thread (see ChildProcess).
class PgServer {
 public:
  static constexpr const char* kSystemUser = "dlockpg";
  static constexpr const char* kSuperuser = "postgres";
  static constexpr const char* kDatabase = "postgres";

  PgServer();
  ~PgServer();
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return postmaster_->pid(); }
  bool running() { return postmaster_->running(); }
  const std::string& log_path() const { return log_; }
  // postgresql://<role>@127.0.0.1:<port>/postgres
  std::string url(const std::string& role = kSuperuser) const;

  // SQL through psql as `role`: rows as lines, columns joined by '|', no
  // headers. query() throws with psql's message when psql fails;
  // try_query() returns what psql said and its status.
  std::string query(const std::string& sql, const std::string& role = kSuperuser);
  ProgramOutput try_query(const std::string& sql, const std::string& role = kSuperuser);

  // pg_terminate_backend(): the server ends that connection (the client sees
  // SQLSTATE 57P01, then a closed socket). True when there was such a backend.
  bool terminate_backend(int backend_pid);
  // SIGKILL to the postmaster and every server process it started: a crash
  // with nothing written on the way out. The port stays claimed and closed.
  void kill9();
  // kill9() when running, then the same cluster again on the same port;
  // returns once it serves.
  void restart();

 private:
  void init_cluster();
  void start();
  std::vector<std::string> as_system_user(std::vector<std::string> argv) const;
  std::string binary(const std::string& name) const;

  std::string bin_dir_;
  std::unique_ptr<TempDir> dir_;
  std::string data_;
  std::string log_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> postmaster_;
};

}  // namespace dlock_test
