#pragma once

#include <cstdint>
#include <string>

namespace dlock_test {

struct FencedStoreState {
  long long value = 0;
  uint64_t highest_token = 0;
  long long accepted_writes = 0;
  long long stale_rejections = 0;
};

// The independent resource the lock guards: one register in a file shared by
// processes, every operation under flock(). A write carrying a fencing token below
// the highest one seen is rejected and counted, as a fenced storage service would.
class FencedStore {
 public:
  explicit FencedStore(std::string path);

  long long read() const;
  // true: written; false: the token is stale and nothing changed.
  bool write(uint64_t token, long long value) const;
  FencedStoreState state() const;

 private:
  std::string path_;
};

}  // namespace dlock_test
