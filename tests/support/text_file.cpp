#include "text_file.hpp"

#include <deque>
#include <fstream>
#include <sstream>

namespace dlock_test {

std::string read_text_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string last_lines(const std::string& path, std::size_t count) {
  std::ifstream file(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    lines.push_back(line);
    if (lines.size() > count) lines.pop_front();
  }
  std::string text;
  for (const std::string& line : lines) text += "\n    " + line;
  return text;
}

}  // namespace dlock_test
