#include "text_file.hpp"

#include <fstream>
#include <sstream>

namespace dlock_test {

std::string read_text_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace dlock_test
