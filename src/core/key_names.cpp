#include "core/key_names.hpp"

#include "common/error.hpp"
#include "dlock.h"

namespace dlock {
namespace {

// Every derived key must hash to the name's cluster slot. A name with '{' is
// hashed by its tag, so the tag must be one Redis recognises: a '}' after the
// first '{', with at least one byte between them. A name without '{' is
// wrapped as "{name}" in the derived keys, whose tag would end at a '}' in it.
bool has_usable_hash_tag(const std::string& name) {
  const std::size_t open = name.find('{');
  if (open == std::string::npos) return name.find('}') == std::string::npos;
  const std::size_t close = name.find('}', open + 1);
  return close != std::string::npos && close > open + 1;
}

// "{x}" is its own tag, so its derived keys are "<prefix>:{x}": those of the
// name "x" (Redisson's layout).
bool is_only_a_hash_tag(const std::string& name) {
  return name.front() == '{' && name.find_first_of("{}", 1) == name.size() - 1;
}

}  // namespace

const std::size_t kNameMaxBytes = DLOCK_NAME_MAX;

void check_name(const std::string& name, const char* derived) {
  if (name.empty()) {
    throw InvalidArgument("name: must not be empty");
  }
  if (name.size() > DLOCK_NAME_MAX) {
    throw InvalidArgument("name: " + std::to_string(name.size()) + " bytes, longer than DLOCK_NAME_MAX (" +
                          std::to_string(DLOCK_NAME_MAX) + ")");
  }
  if (!has_usable_hash_tag(name)) {
    throw InvalidArgument(
        "name: a '{' needs a later '}' with a non-empty hash tag between them (as in "
        "job{42}), and a '}' needs an earlier '{', or the derived keys would not share "
        "a cluster slot");
  }
  if (is_only_a_hash_tag(name)) {
    throw InvalidArgument("name: '" + name + "' is only a hash tag, and would share its " + derived +
                          " with '" + name.substr(1, name.size() - 2) +
                          "'; put text outside the braces, as in lock" + name);
  }
}

std::string prefixed(const char* prefix, const std::string& name) {
  if (name.find('{') != std::string::npos) {
    return std::string(prefix) + ":" + name;
  }
  return std::string(prefix) + ":{" + name + "}";
}

std::string suffixed(const std::string& name, const char* suffix) {
  if (name.find('{') != std::string::npos) {
    return name + ":" + suffix;
  }
  return "{" + name + "}:" + suffix;
}

}  // namespace dlock
