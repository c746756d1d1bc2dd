#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace dlock_fuzz {

// A property of the code under test failed for `input`: report it and abort, which
// both libFuzzer and the corpus replay treat as a crash.
inline void require(bool holds, const char* property, const std::string& input) {
  if (holds) return;
  std::fprintf(stderr, "property violated: %s\ninput (%zu bytes): ", property, input.size());
  for (const unsigned char byte : input) {
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      std::fputc(byte, stderr);
    } else {
      std::fprintf(stderr, "\\x%02x", byte);
    }
  }
  std::fputc('\n', stderr);
  std::abort();
}

}  // namespace dlock_fuzz
