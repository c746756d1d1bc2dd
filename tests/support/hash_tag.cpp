#include "hash_tag.hpp"

namespace dlock_test {

std::string hash_tag(const std::string& key) {
  const std::size_t open = key.find('{');
  if (open == std::string::npos) return key;
  const std::size_t close = key.find('}', open + 1);
  if (close == std::string::npos || close == open + 1) return key;
  return key.substr(open + 1, close - open - 1);
}

bool is_only_a_hash_tag(const std::string& name) {
  return !name.empty() && name.front() == '{' && name.find_first_of("{}", 1) == name.size() - 1;
}

}  // namespace dlock_test
