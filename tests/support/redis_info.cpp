#include "redis_info.hpp"

#include <sstream>

namespace dlock_test {

InfoFields parse_info(const std::string& text) {
  InfoFields fields;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
    fields[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return fields;
}

}  // namespace dlock_test
