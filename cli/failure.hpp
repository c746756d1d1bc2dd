// The one way a command reports that it cannot go on: a message for stderr and
// the exit code it implies. main() turns it into "dlock: <message>".
#pragma once

#include <stdexcept>
#include <string>

#include "exit_codes.hpp"

namespace dlock_cli {

class Failure : public std::runtime_error {
 public:
  Failure(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const noexcept { return exit_code_; }

 private:
  int exit_code_;
};

inline Failure usage_error(const std::string& message) {
  return Failure(exit_code::usage, message + " (see dlock --help)");
}

}  // namespace dlock_cli
