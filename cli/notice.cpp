#include "notice.hpp"

#include <unistd.h>

namespace dlock_cli {

void Notice::raise() noexcept {
  const char one = 1;
  // Fails only when the pipe is full, which leaves it raised all the same.
  (void)!write(pipe_.write_end(), &one, sizeof one);
}

bool Notice::take() noexcept {
  char bytes[64];
  bool raised = false;
  while (read(pipe_.read_end(), bytes, sizeof bytes) > 0) raised = true;
  return raised;
}

}  // namespace dlock_cli
