#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlock_test {

// One critical section as its holder saw it, stamped with CLOCK_MONOTONIC.
struct Section {
  uint64_t token = 0;
  std::string owner;  // "<pid>.<thread index>": unique across the processes of a run
  int64_t start_ns = 0;  // right after the acquire returned
  int64_t end_ns = 0;    // right before the release was sent
  bool write_accepted = false;  // the fenced store acknowledged the section's write
  int release_status = 0;       // what dlock_lock_release returned
};

// Sections appended as text lines to a file shared by many processes: the file is
// opened with O_APPEND and each line goes out in one write(), so lines never interleave.
class SectionLog {
 public:
  explicit SectionLog(const std::string& path);
  ~SectionLog();
  SectionLog(const SectionLog&) = delete;
  SectionLog& operator=(const SectionLog&) = delete;

  void append(const Section& section);

  static std::vector<Section> read(const std::string& path);

 private:
  int fd_ = -1;
};

// How often the sections, in the order they started, passed from `owner` to
// another owner and from another owner to `owner`: an interop run's proof that
// the lock went both ways.
struct Handoffs {
  int from_owner = 0;
  int to_owner = 0;
};
Handoffs count_handoffs(std::vector<Section> sections, const std::string& owner);

}  // namespace dlock_test
