#include "handoff_harness.hpp"

#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <new>
#include <stdexcept>

namespace dlock_bench {
namespace {

// Long enough for every other worker to be blocked in acquire at each release.
constexpr useconds_t hold_us = 1000;
constexpr int64_t step_aside_cap_ns = 50000000;
constexpr int64_t run_deadline_ns = 30000000000;

// Shared by the parent and the workers through an anonymous shared mapping;
// lock-free atomics work across processes there, and so does a futex on one.
// The `recorded` grants follow it in the mapping.
struct Board {
  std::atomic<int> ready;
  std::atomic<int> go;
  std::atomic<int32_t> grants_taken;
  int32_t recorded;

  Grant* grants() { return reinterpret_cast<Grant*>(this + 1); }
};

std::size_t board_size(int32_t recorded) {
  return sizeof(Board) + sizeof(Grant) * static_cast<std::size_t>(recorded);
}

// Sleeps while *word == expected, at most until `timeout_ns` passed.
void futex_wait(std::atomic<int32_t>& word, int32_t expected, int64_t timeout_ns) {
  const timespec timeout{static_cast<time_t>(timeout_ns / 1000000000),
                         static_cast<long>(timeout_ns % 1000000000)};
  syscall(SYS_futex, reinterpret_cast<int32_t*>(&word), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}

void futex_wake_all(std::atomic<int32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<int32_t*>(&word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

void contend(Contender& contender, Board& board, int worker) {
  board.ready.fetch_add(1);
  while (board.go.load() == 0) usleep(100);
  for (;;) {
    const int64_t asked_ns = monotonic_ns();
    const uint64_t token = contender.acquire();
    const int64_t granted_ns = monotonic_ns();
    const int32_t index = board.grants_taken.fetch_add(1);
    futex_wake_all(board.grants_taken);  // the previous holder may queue up again
    if (index >= board.recorded) {
      contender.release();
      return;
    }
    Grant& grant = board.grants()[index];
    grant = Grant{asked_ns, granted_ns, 0, 0, token, worker};
    usleep(hold_us);
    grant.releasing_ns = monotonic_ns();
    contender.release();
    grant.released_ns = monotonic_ns();
    // Step aside until another process holds the lock, so that a release
    // hands it to a waiter rather than back to its own releaser.
    futex_wait(board.grants_taken, index + 1, step_aside_cap_ns);
  }
}

}  // namespace

LockContender::LockContender(const std::string& url, const std::string& name,
                             const dlock_client_options& options)
    : client_(open_client(url, options)), lock_(new_lock(client_.get(), name)) {}

uint64_t LockContender::acquire() {
  uint64_t token = 0;
  require_ok(dlock_lock_acquire(lock_.get(), -1, -1, &token), "dlock_lock_acquire");
  return token;
}

void LockContender::release() {
  require_ok(dlock_lock_release(lock_.get()), "dlock_lock_release");
}

pid_t fork_worker(const std::function<int()>& child, const std::string& what) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid > 0) return pid;
  int status = 1;
  try {
    status = child();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s worker: %s\n", what.c_str(), error.what());
  }
  std::fflush(nullptr);
  _exit(status);
}

bool reap(const std::vector<pid_t>& pids, int64_t deadline_ns, const std::string& what) {
  bool all_succeeded = true;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (monotonic_ns() > deadline_ns) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      usleep(1000);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "%s worker %d: %s %d\n", what.c_str(), static_cast<int>(pid),
                   WIFSIGNALED(status) ? "killed by signal" : "exit status",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      all_succeeded = false;
    }
  }
  return all_succeeded;
}

std::vector<Grant> run_handoffs(const HandoffRun& run) {
  void* shared =
      mmap(nullptr, board_size(run.grants), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("mmap of the shared grant board failed");
  Board& board = *new (shared) Board{};
  board.recorded = run.grants;
  std::vector<pid_t> pids;
  for (int worker = 0; worker < run.workers; ++worker) {
    pids.push_back(fork_worker(
        [&, worker] {
          contend(*run.make(worker), board, worker);
          return 0;
        },
        run.what));
  }
  const int64_t deadline_ns = monotonic_ns() + run_deadline_ns;
  while (board.ready.load() < run.workers && monotonic_ns() < deadline_ns) usleep(1000);
  if (run.on_ready) run.on_ready();
  board.go.store(1);
  const bool succeeded = reap(pids, deadline_ns, run.what) && board.grants_taken.load() >= run.grants;
  std::vector<Grant> grants;
  if (succeeded) grants.assign(board.grants(), board.grants() + run.grants);
  munmap(shared, board_size(run.grants));
  if (!succeeded) throw std::runtime_error(run.what + " hand-off workers failed or ran out of time");
  return grants;
}

void HandoffAnalysis::add(const std::vector<Grant>& grants) {
  for (std::size_t i = 1; i < grants.size(); ++i) {
    const Grant& previous = grants[i - 1];
    const Grant& next = grants[i];
    if (next.token <= previous.token) ++token_inversions;
    if (next.granted_ns < previous.releasing_ns) ++overlaps;
    if (next.worker != previous.worker && next.asked_ns < previous.releasing_ns) {
      handoff_ns.push_back(next.granted_ns - previous.releasing_ns);
      release_ns.push_back(previous.released_ns - previous.releasing_ns);
      taken.push_back(&next);
    } else {
      ++not_handoffs;
    }
  }
}

}  // namespace dlock_bench
