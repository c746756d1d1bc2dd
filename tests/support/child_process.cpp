#include "child_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace dlock_test {
namespace {

// Resolved in the parent: between fork and exec only async-signal-safe calls are allowed.
std::string resolve_executable(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  throw std::runtime_error("executable not found on PATH: " + program);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& output_path) {
  const std::string executable = resolve_executable(argv.at(0));
  std::vector<char*> raw_argv;
  for (const std::string& argument : argv) raw_argv.push_back(const_cast<char*>(argument.c_str()));
  raw_argv.push_back(nullptr);

  const int output = open(output_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (output < 0) throw std::runtime_error("open " + output_path + ": " + std::strerror(errno));
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(output, STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    execv(executable.c_str(), raw_argv.data());
    _exit(127);
  }
  const int fork_errno = errno;
  close(output);
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(fork_errno));
}

ChildProcess::~ChildProcess() {
  if (!status_) kill_and_reap();
}

bool ChildProcess::reap(int options) {
  if (status_) return true;
  int status = 0;
  pid_t result;
  do {
    result = waitpid(pid_, &status, options);
  } while (result < 0 && errno == EINTR);
  if (result == pid_) status_ = status;
  return status_.has_value();
}

bool ChildProcess::running() { return !reap(WNOHANG); }

void ChildProcess::signal(int signal_number) {
  if (!status_) kill(pid_, signal_number);
}

std::optional<int> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!reap(WNOHANG)) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status_;
}

int ChildProcess::kill_and_reap() {
  signal(SIGCONT);
  signal(SIGKILL);
  reap(0);
  return *status_;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "wait status " + std::to_string(status);
}

}  // namespace dlock_test
