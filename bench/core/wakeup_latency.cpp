#include "wakeup_latency.hpp"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <vector>

#include "borrowed.hpp"
#include "percentile.hpp"

namespace dlock_bench {
namespace {

// Long enough for the child to be asleep in read(2) again.
constexpr useconds_t pause_us = 300;

bool transfer(int fd, int64_t& value, bool send) {
  const ssize_t done = send ? write(fd, &value, sizeof value) : read(fd, &value, sizeof value);
  return done == static_cast<ssize_t>(sizeof value);
}

// Pins the calling process to the first (or last) CPU it may run on.
void pin_to_end_of(const cpu_set_t& allowed, bool last) {
  int chosen = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed) && (chosen < 0 || last)) chosen = cpu;
  }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(chosen, &one);
  sched_setaffinity(0, sizeof one, &one);
}

}  // namespace

int64_t process_wakeup_ns(int samples, bool cross_cpu) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool pin = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  int to_child[2];
  int from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    close(to_child[1]);  // so that the parent's close ends the loop below
    close(from_child[0]);
    if (pin) pin_to_end_of(allowed, cross_cpu);
    // Sends back, for each stamp received, how long after it the read returned.
    int64_t sent_ns = 0;
    while (transfer(to_child[0], sent_ns, false)) {
      int64_t delay_ns = monotonic_ns() - sent_ns;
      if (!transfer(from_child[1], delay_ns, true)) break;
    }
    _exit(0);
  }
  close(to_child[0]);
  close(from_child[1]);
  if (pin) pin_to_end_of(allowed, false);
  std::vector<int64_t> delays;
  for (int i = 0; i < samples; ++i) {
    usleep(pause_us);
    int64_t stamp = monotonic_ns();
    int64_t delay_ns = 0;
    if (!transfer(to_child[1], stamp, true) || !transfer(from_child[0], delay_ns, false)) break;
    delays.push_back(delay_ns);
  }
  close(to_child[1]);
  close(from_child[0]);
  waitpid(child, nullptr, 0);
  if (pin) sched_setaffinity(0, sizeof allowed, &allowed);
  if (delays.empty()) throw std::runtime_error("the wake-up probe process failed");
  return percentile(delays, 50);
}

}  // namespace dlock_bench
