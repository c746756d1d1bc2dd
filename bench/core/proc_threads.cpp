#include "proc_threads.hpp"

#include <dirent.h>

#include <stdexcept>
#include <string>

namespace dlock_bench {

std::set<int> thread_ids() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) throw std::runtime_error("cannot open /proc/self/task");
  std::set<int> ids;
  while (const dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] != '.') ids.insert(std::stoi(entry->d_name));
  }
  closedir(tasks);
  return ids;
}

}  // namespace dlock_bench
