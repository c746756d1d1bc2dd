#pragma once

#include <map>
#include <string>

namespace dlock_test {

// The "field:value" lines of an INFO reply (section headers and blank lines skipped).
using InfoFields = std::map<std::string, std::string>;

InfoFields parse_info(const std::string& text);

}  // namespace dlock_test
