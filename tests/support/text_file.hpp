// A whole text file as a string (empty when it cannot be read): what a test or
// the benchmark reads back from a child process's output.
#pragma once

#include <string>

namespace dlock_test {

std::string read_text_file(const std::string& path);

}  // namespace dlock_test
