#include "pg_server.hpp"

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "redis_server.hpp"  // pick_free_port
#include "text_file.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

constexpr auto kStartupTimeout = std::chrono::seconds(30);
constexpr const char* kDebianBinDir = "/usr/lib/postgresql/15/bin";

bool running_as_root() {
  return geteuid() == 0;
}

void ensure_system_user(const char* name) {
  if (getpwnam(name) != nullptr) return;
  const ProgramOutput made =
      run_program({"useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name});
  if (!made.succeeded() && getpwnam(name) == nullptr) {
    throw std::runtime_error(std::string("PgServer: cannot create the system user ") + name + ": " +
                             made.output);
  }
}

// Every process the postmaster started (backends, checkpointer, walwriter...).
std::vector<pid_t> children_of(pid_t parent) {
  const std::string list =
      read_text_file("/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) + "/children");
  std::vector<pid_t> children;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t used = 0;
    children.push_back(static_cast<pid_t>(std::stol(list.substr(start), &used)));
    start += used;
    while (start < list.size() && list[start] == ' ') ++start;
  }
  return children;
}

}  // namespace

PgServer::PgServer() {
  const char* bin_dir = std::getenv("DLOCK_TEST_PG_BINDIR");
  bin_dir_ = bin_dir != nullptr && *bin_dir != '\0' ? bin_dir : kDebianBinDir;
  if (access(binary("postgres").c_str(), X_OK) != 0) {
    throw std::runtime_error("no PostgreSQL server: " + binary("postgres") +
                             " is missing (Debian's postgresql-15; scripts/deps.sh all installs it)");
  }
  if (running_as_root()) ensure_system_user(kSystemUser);
  dir_ = std::make_unique<TempDir>();
  data_ = dir_->file("data");
  log_ = dir_->file("postgres.log");
  port_ = pick_free_port();
  init_cluster();
  start();
}

PgServer::~PgServer() = default;

std::string PgServer::binary(const std::string& name) const {
  return bin_dir_ + "/" + name;
}

std::vector<std::string> PgServer::as_system_user(std::vector<std::string> argv) const {
  if (!running_as_root()) return argv;
  const std::string user = kSystemUser;
  std::vector<std::string> wrapped{"setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups"};
  wrapped.insert(wrapped.end(), std::make_move_iterator(argv.begin()), std::make_move_iterator(argv.end()));
  return wrapped;
}

void PgServer::init_cluster() {
  if (running_as_root()) {
    const passwd* user = getpwnam(kSystemUser);
    if (chown(dir_->path().c_str(), user->pw_uid, user->pw_gid) != 0) {
      throw std::runtime_error("PgServer: chown " + dir_->path() + " to " + kSystemUser + " failed");
    }
  }
  const ProgramOutput made =
      run_program(as_system_user({binary("initdb"), "-D", data_, "--auth=trust", "-U", kSuperuser, "-E",
                                  "UTF8", "--locale=C", "--no-sync"}));
  if (!made.succeeded()) {
    throw std::runtime_error("PgServer: initdb failed (" + describe_wait_status(made.status) +
                             "): " + made.output);
  }
}

void PgServer::start() {
  // fsync off: a SIGKILL of the server loses nothing the kernel holds, and
  // the tests crash the server, never the machine.
  postmaster_ = std::make_unique<ChildProcess>(
      as_system_user({binary("postgres"), "-D", data_, "-p", std::to_string(port_), "-k", dir_->path(), "-c",
                      "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"}),
      log_);
  const bool serving =
      wait_until([&] { return !postmaster_->running() || try_query("SELECT 1").succeeded(); },
                 std::chrono::duration_cast<std::chrono::milliseconds>(kStartupTimeout));
  if (!serving || !postmaster_->running()) {
    throw std::runtime_error("PostgreSQL on port " + std::to_string(port_) + " did not start (" + log_ +
                             "):" + last_lines(log_, 8));
  }
}

std::string PgServer::url(const std::string& role) const {
  return "postgresql://" + role + "@127.0.0.1:" + std::to_string(port_) + "/" + kDatabase;
}

ProgramOutput PgServer::try_query(const std::string& sql, const std::string& role) {
  return run_program({binary("psql"), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                      "-p", std::to_string(port_), "-U", role, "-d", kDatabase, "-c", sql});
}

std::string PgServer::query(const std::string& sql, const std::string& role) {
  ProgramOutput answer = try_query(sql, role);
  if (!answer.succeeded()) {
    throw std::runtime_error("psql as " + role + " on port " + std::to_string(port_) + ": " + sql + ": " +
                             answer.output);
  }
  while (!answer.output.empty() && answer.output.back() == '\n') answer.output.pop_back();
  return answer.output;
}

bool PgServer::terminate_backend(int backend_pid) {
  return query("SELECT pg_terminate_backend(" + std::to_string(backend_pid) + ")") == "t";
}

void PgServer::kill9() {
  if (!postmaster_->running()) return;
  const std::vector<pid_t> children = children_of(postmaster_->pid());
  postmaster_->signal(SIGSTOP);  // starts nothing more while its children die
  for (const pid_t child : children) kill(child, SIGKILL);
  postmaster_->kill_and_reap();
}

void PgServer::restart() {
  kill9();
  start();
}

}  // namespace dlock_test
