#include "proc_threads.hpp"

#include <dirent.h>

#include <fstream>
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

SyscallCounts syscalls_of(const std::set<int>& threads) {
  SyscallCounts counts;
  for (const int id : threads) {
    std::ifstream io("/proc/self/task/" + std::to_string(id) + "/io");
    std::string name;
    int64_t value = 0;
    while (io >> name >> value) {
      if (name == "syscr:") counts.reads += value;
      if (name == "syscw:") counts.writes += value;
    }
  }
  return counts;
}

}  // namespace dlock_bench
