// A client opened before fork() works in the child on fresh connections and a new
// client id, and leaves the parent's holds alone.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class Fork : public RedisFixture {};

// Runs in the child: returns 0, or the number of the first check that failed.
int child_checks(dlock_client* client, dlock_lock* parents_lock) {
  if (dlock_lock_acquire(parents_lock, 0, 5000, nullptr) != DLOCK_NOT_ACQUIRED) return 1;
  int held = 1;
  if (dlock_lock_is_held(parents_lock, &held) != DLOCK_OK || held != 0) return 2;
  if (dlock_lock_release(parents_lock) != DLOCK_E_NOT_OWNER) return 3;
  dlock_lock* own = nullptr;
  if (dlock_lock_new(client, "child", &own) != DLOCK_OK) return 4;
  uint64_t token = 0;
  if (dlock_lock_acquire(own, 0, -1, &token) != DLOCK_OK) return 5;
  if (dlock_lock_release(own) != DLOCK_OK) return 6;
  if (dlock_lock_acquire(own, 0, -1, &token) != DLOCK_OK) return 7;
  dlock_lock_free(own);
  dlock_client_close(client);
  return 0;
}

TEST_F(Fork, ChildUsesTheClientOnItsOwn) {
#ifdef __SANITIZE_THREAD__
  // glibc hands the child's new threads the ids of the parent's threads, which
  // TSan still counts as alive after fork ("dup thread with used id").
  GTEST_SKIP() << "TSan cannot follow threads started in a child of a multithreaded fork";
#endif
  ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "parent");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  const auto fields = hash_fields(server(), "parent");

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(child_checks(client.get(), lock.get()));

  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "the child hung";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child check " << WEXITSTATUS(status) << " failed";
  EXPECT_FALSE(key_exists(server(), "child")) << "closing the child's client did not release its lock";
  EXPECT_EQ(hash_fields(server(), "parent"), fields) << "the child touched the parent's hold";
  int held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), "parent"));
}

}  // namespace
}  // namespace dlock_test
