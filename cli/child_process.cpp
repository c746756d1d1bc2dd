#include "child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

#include "failure.hpp"
#include "pipe.hpp"
#include "platform.hpp"

extern char** environ;

namespace dlock_cli {
namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// The child's side of the fork: async-signal-safe calls only, as the parent
// has threads. Writes exec's errno to `exec_error_fd` when it fails.
[[noreturn]] void exec_command(char** args, char** env, const sigset_t& signals_to_restore, pid_t parent,
                               int exec_error_fd) {
  if (!platform::die_with_parent(parent)) _exit(exit_code::signal_base + SIGKILL);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; ++number) {
    if (sigismember(&signals_to_restore, number) == 1) sigaction(number, &default_action, nullptr);
  }
  sigset_t no_signals;
  sigemptyset(&no_signals);
  sigprocmask(SIG_SETMASK, &no_signals, nullptr);
  environ = env;
  execvp(args[0], args);
  const int error = errno;
  (void)!write(exec_error_fd, &error, sizeof error);
  _exit(exit_code::command_not_found);
}

}  // namespace

// fork and exec rather than posix_spawnp: the child must tie its life to
// dlock's between the two (platform::die_with_parent).
ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                           const sigset_t& signals_to_restore) {
  std::vector<char*> args = c_strings(argv);
  std::vector<char*> env = c_strings(environment);
  Pipe exec_error(Pipe::Mode::blocking);  // closed by a successful exec
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw Failure(exit_code::internal, std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) exec_command(args.data(), env.data(), signals_to_restore, parent, exec_error.write_end());
  exec_error.close_write_end();
  int error = 0;
  ssize_t got = 0;
  do {
    got = read(exec_error.read_end(), &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof error)) return;  // exec'd
  waitpid(pid_, nullptr, 0);
  if (error == ENOENT) throw Failure(exit_code::command_not_found, argv[0] + ": command not found");
  throw Failure(exit_code::cannot_execute, argv[0] + ": cannot execute: " + std::strerror(error));
}
void ChildProcess::signal(int signal) const noexcept {
  kill(pid_, signal);
}

std::optional<int> ChildProcess::reap() {
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  if (WIFSIGNALED(status)) return exit_code::signal_base + WTERMSIG(status);
  return WEXITSTATUS(status);
}

namespace {

// What dlock sets in COMMAND's environment: none is inherited from an
// enclosing dlock run or dlock elect.
const char* const dlock_variables[] = {"DLOCK_NAME=", "DLOCK_FENCING_TOKEN=", "DLOCK_PERMIT_ID=",
                                       "DLOCK_ELECTION=", "DLOCK_TERM="};

bool is_dlock_variable(const std::string& variable) {
  for (const char* prefix : dlock_variables) {
    if (variable.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// The current environment without dlock's variables, and `variables` added.
std::vector<std::string> environment_with(std::initializer_list<std::string> variables) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    const std::string variable = *entry;
    if (!is_dlock_variable(variable)) environment.push_back(variable);
  }
  environment.insert(environment.end(), variables.begin(), variables.end());
  return environment;
}

}  // namespace

std::vector<std::string> environment_for_command(const std::string& name, uint64_t token) {
  return environment_with({"DLOCK_NAME=" + name, "DLOCK_FENCING_TOKEN=" + std::to_string(token)});
}

std::vector<std::string> environment_for_permit(const std::string& name, const std::string& permit_id) {
  return environment_with({"DLOCK_NAME=" + name, "DLOCK_PERMIT_ID=" + permit_id});
}

std::vector<std::string> environment_for_leader(const std::string& election, uint64_t term) {
  return environment_with({"DLOCK_ELECTION=" + election, "DLOCK_TERM=" + std::to_string(term)});
}

}  // namespace dlock_cli
