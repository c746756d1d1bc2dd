// JSON text for the commands' --json output.
#pragma once

#include <string>

namespace dlock_cli {

// `text` as a JSON string, quoted, with '"', '\\' and control characters escaped.
std::string json_string(const std::string& text);

}  // namespace dlock_cli
