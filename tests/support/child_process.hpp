#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace dlock_test {

// A program run as a child process, its stdout and stderr appended to a file.
// The child gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG),
// so a crashed test leaves no servers or workers behind: start children from the
// test's main thread. The destructor kills and reaps a child still running.
class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::string& output_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  void signal(int signal_number);
  // The raw wait status once the child exits, nullopt if it is still running after `timeout`.
  std::optional<int> wait_for(std::chrono::milliseconds timeout);
  // SIGKILL (after SIGCONT, in case it is stopped) and reap; returns the wait status.
  int kill_and_reap();

 private:
  bool reap(int options);

  pid_t pid_ = -1;
  std::optional<int> status_;
};

// "exited with 3", "killed by signal 9": for assertion messages.
std::string describe_wait_status(int status);

}  // namespace dlock_test
