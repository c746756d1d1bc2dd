#pragma once

#include <cstdio>
#include <string>

namespace dlock_test {

// `bytes` in double quotes with non-printable bytes (and backslashes) as \xNN, at
// most `limit` of them, then the full length: arbitrary names and URLs in messages.
inline std::string printable_bytes(const std::string& bytes, std::size_t limit = std::string::npos) {
  std::string text = "\"";
  for (const unsigned char byte : bytes.substr(0, limit)) {
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      text += static_cast<char>(byte);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    }
  }
  text += "\"";
  if (bytes.size() > limit) text += "...(" + std::to_string(bytes.size()) + " bytes)";
  return text;
}

}  // namespace dlock_test
