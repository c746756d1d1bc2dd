#include "child_process.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "failure.hpp"

extern char** environ;

namespace dlock_cli {
namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                           const sigset_t& signals_to_restore) {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  posix_spawnattr_setsigdefault(&attributes, &signals_to_restore);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args = c_strings(argv);
  std::vector<char*> env = c_strings(environment);
  const int error = posix_spawnp(&pid_, args[0], nullptr, &attributes, args.data(), env.data());
  posix_spawnattr_destroy(&attributes);
  if (error == ENOENT) throw Failure(exit_code::command_not_found, argv[0] + ": command not found");
  if (error != 0) {
    throw Failure(exit_code::cannot_execute, argv[0] + ": cannot execute: " + std::strerror(error));
  }
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

// The current environment with DLOCK_NAME and the hold's variable set, and
// none of dlock's variables inherited from an enclosing run.
std::vector<std::string> environment_with(const std::string& name, const std::string& hold_variable) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    const std::string variable = *entry;
    if (variable.rfind("DLOCK_NAME=", 0) == 0 || variable.rfind("DLOCK_FENCING_TOKEN=", 0) == 0 ||
        variable.rfind("DLOCK_PERMIT_ID=", 0) == 0) {
      continue;
    }
    environment.push_back(variable);
  }
  environment.push_back("DLOCK_NAME=" + name);
  environment.push_back(hold_variable);
  return environment;
}

}  // namespace

std::vector<std::string> environment_for_command(const std::string& name, uint64_t token) {
  return environment_with(name, "DLOCK_FENCING_TOKEN=" + std::to_string(token));
}

std::vector<std::string> environment_for_permit(const std::string& name, const std::string& permit_id) {
  return environment_with(name, "DLOCK_PERMIT_ID=" + permit_id);
}

}  // namespace dlock_cli
