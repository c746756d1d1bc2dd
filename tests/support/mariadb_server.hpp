#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "child_process.hpp"
#include "program_output.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

// A throwaway MariaDB 10.11 server (Debian's mariadb-server; $DLOCK_TEST_MARIADBD
// names another mariadbd) on a claimed loopback port, its data in a TempDir
// made by mariadb-install-db with `root` reachable over TCP without a password,
// and the empty database `dlock`. No binary log, no server-wide option files
// (--no-defaults). The server is this process's child, killed on destruction:
// construct, restart() and destroy it on the test's main thread (see ChildProcess).
class MariaDbServer {
 public:
  static constexpr const char* kSuperuser = "root";
  static constexpr const char* kDatabase = "dlock";

  MariaDbServer();
  ~MariaDbServer();
  MariaDbServer(const MariaDbServer&) = delete;
  MariaDbServer& operator=(const MariaDbServer&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return server_->pid(); }
  bool running() { return server_->running(); }
  const std::string& log_path() const { return log_; }
  // mysql://<user>[:<password>]@127.0.0.1:<port>/dlock
  std::string url(const std::string& user = kSuperuser, const std::string& password = "") const;

  // SQL through the mariadb client as `user`, in the database `dlock`: rows
  // as lines, columns joined by tabs, no headers. query() throws with the
  // client's message when it fails; try_query() returns it and the status.
  std::string query(const std::string& sql, const std::string& user = kSuperuser,
                    const std::string& password = "");
  ProgramOutput try_query(const std::string& sql, const std::string& user = kSuperuser,
                          const std::string& password = "");

  // KILL CONNECTION <id>: the server closes that connection.
  void kill_connection(unsigned long connection_id);
  // SIGKILL: a crash with nothing written on the way out. The port stays claimed and closed.
  void kill9();
  // kill9() when running, then the same data again on the same port; returns once it serves.
  void restart();

 private:
  std::string tmp_dir() const;
  void install();
  void start();

  std::string server_binary_;
  std::unique_ptr<TempDir> dir_;
  std::string data_;
  std::string log_;
  int port_ = 0;
  bool database_made_ = false;  // queries run in `dlock` once it exists
  std::unique_ptr<ChildProcess> server_;
};

}  // namespace dlock_test
