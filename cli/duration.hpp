// Durations on the command line: one or more <integer><unit> with units
// ms, s, m, h, d, e.g. 500ms, 30s, 5m, 1h, 1h30m.
#pragma once

#include <cstdint>
#include <string>

namespace dlock_cli {

// Milliseconds in `text`; throws a usage Failure naming `option` otherwise.
int64_t parse_duration_ms(const std::string& text, const std::string& option);

}  // namespace dlock_cli
