#include "async_completion.hpp"

#include <dirent.h>

#include "monotonic_clock.hpp"

namespace dlock_test {

void Completion::complete(Outcome outcome) {
  outcome.at_ms = monotonic_ms();
  // Counted before the promise: a second call shows in calls() instead of throwing.
  if (calls_.fetch_add(1) == 0) promise_.set_value(std::move(outcome));
}

void Completion::on_done(int status, uint64_t token, const char* message, void* ctx) {
  static_cast<Completion*>(ctx)->complete({status, token, "", message, 0});
}

void Completion::on_permit(int status, const char* permit_id, const char* message, void* ctx) {
  static_cast<Completion*>(ctx)->complete({status, 0, permit_id, message, 0});
}

int thread_count() {
  int count = 0;
  DIR* tasks = opendir("/proc/self/task");
  while (dirent* entry = readdir(tasks)) count += entry->d_name[0] != '.';
  closedir(tasks);
  return count;
}

}  // namespace dlock_test
