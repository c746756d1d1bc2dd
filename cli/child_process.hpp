// COMMAND, started in dlock's process group, with the signal mask and
// dispositions dlock changed restored to their defaults, and killed when dlock
// dies where the system allows it (platform::die_with_parent).
#pragma once

#include <sys/types.h>

#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlock_cli {

class ChildProcess {
 public:
  // Throws a Failure with exit code 127 (not found) or 126 (not executable).
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
               const sigset_t& signals_to_restore);

  pid_t pid() const { return pid_; }
  void signal(int signal) const noexcept;
  // When it has ended (reaping it): its status as a shell reports it, the
  // exit code, or 128 + N when signal N ended it.
  std::optional<int> reap();

 private:
  pid_t pid_ = -1;
};

// The current environment with DLOCK_NAME and DLOCK_FENCING_TOKEN set.
std::vector<std::string> environment_for_command(const std::string& name, uint64_t token);
// The current environment with DLOCK_NAME and DLOCK_PERMIT_ID set (--permits).
std::vector<std::string> environment_for_permit(const std::string& name, const std::string& permit_id);
// The current environment with DLOCK_ELECTION and DLOCK_TERM set (dlock elect).
std::vector<std::string> environment_for_leader(const std::string& election, uint64_t term);

}  // namespace dlock_cli
