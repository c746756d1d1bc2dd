#include "status_assertions.hpp"

#include <algorithm>
#include <cctype>

#include "dlock.h"
#include "dlock_handles.hpp"

namespace dlock_test {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

::testing::AssertionResult invalid_naming(int status, const std::string& argument) {
  if (status != DLOCK_E_INVALID) {
    return ::testing::AssertionFailure() << "expected DLOCK_E_INVALID, got " << describe_status(status);
  }
  const std::string message = dlock_last_error();
  if (lowercase(message).find(lowercase(argument)) == std::string::npos) {
    return ::testing::AssertionFailure() << "dlock_last_error() \"" << message << "\" does not name " << argument;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult status_is(int status, int expected) {
  if (status == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << dlock_strerror(expected) << " (" << expected << "), got "
                                       << describe_status(status);
}

}  // namespace dlock_test
