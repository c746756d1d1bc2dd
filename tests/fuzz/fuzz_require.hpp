#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "printable_bytes.hpp"

namespace dlock_fuzz {

// A property of the code under test failed for `input`: report it and abort, which
// both libFuzzer and the corpus replay treat as a crash.
inline void require(bool holds, const char* property, const std::string& input) {
  if (holds) return;
  std::fprintf(stderr, "property violated: %s\ninput (%zu bytes): %s\n", property, input.size(),
               dlock_test::printable_bytes(input).c_str());
  std::abort();
}

}  // namespace dlock_fuzz
