// A whole text file as a string (empty when it cannot be read): what a test or
// the benchmark reads back from a child process's output.
#pragma once

#include <cstddef>
#include <string>

namespace dlock_test {

std::string read_text_file(const std::string& path);

// The file's last `count` lines, each on a new line indented by four spaces:
// a server's log tail for a failure message.
std::string last_lines(const std::string& path, std::size_t count);

}  // namespace dlock_test
