// URL percent-decoding ("%40" -> '@'), shared by every backend's URL parser:
// user names, passwords and paths may hold the characters a URL reserves.
#pragma once

#include <string>

namespace dlock {

// Decodes each %XX; throws InvalidArgument "url: truncated (or bad) percent
// escape in the <what>" for a '%' not followed by two hex digits.
std::string percent_decode(const std::string& text, const std::string& what);

}  // namespace dlock
