#include "forked_child.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace dlock_test {
namespace {

// In the child: 0, or the number of the first check that failed.
int child_checks(dlock_client* client, dlock_lock* parents_lock, const std::string& own_name) {
  if (dlock_lock_acquire(parents_lock, 0, -1, nullptr) != DLOCK_NOT_ACQUIRED) return 1;
  int held = 1;
  if (dlock_lock_is_held(parents_lock, &held) != DLOCK_OK || held != 0) return 2;
  if (dlock_lock_release(parents_lock) != DLOCK_E_NOT_OWNER) return 3;
  dlock_lock* own = nullptr;
  if (dlock_lock_new(client, own_name.c_str(), &own) != DLOCK_OK) return 4;
  if (dlock_lock_acquire(own, 0, -1, nullptr) != DLOCK_OK) return 5;
  if (dlock_lock_release(own) != DLOCK_OK) return 6;
  if (dlock_lock_acquire(own, 0, -1, nullptr) != DLOCK_OK) return 7;
  dlock_lock_free(own);
  dlock_client_close(client);
  return 0;
}

}  // namespace

std::string run_forked_child_checks(dlock_client* client, dlock_lock* parents_lock, const std::string& own_name) {
  const pid_t child = fork();
  if (child < 0) return "fork() failed";
  if (child == 0) _exit(child_checks(client, parents_lock, own_name));
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return "the child hung";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!WIFEXITED(status)) return "the child died of signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0) return "child check " + std::to_string(WEXITSTATUS(status)) + " failed";
  return "";
}

}  // namespace dlock_test
