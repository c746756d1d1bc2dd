// Checks of a primitive's name and the Redisson-style names derived from it,
// shared by every primitive so that all of them refuse the same names.
#pragma once

#include <cstddef>
#include <string>

namespace dlock {

// Throws InvalidArgument unless `name` is 1..DLOCK_NAME_MAX bytes and, when
// it contains '{', has a non-empty hash tag, and is more than a hash tag.
// `derived` says what a bare hash tag would share with the name inside it.
void check_name(const std::string& name, const char* derived);
// DLOCK_NAME_MAX, for the primitives whose keys add to a name.
extern const std::size_t kNameMaxBytes;

// Redisson's prefixName(): "<prefix>:{<name>}", or "<prefix>:<name>" when the
// name already carries a hash tag.
std::string prefixed(const char* prefix, const std::string& name);
// Redisson's suffixName(): "{<name>}:<suffix>", or "<name>:<suffix>" when the
// name already carries a hash tag.
std::string suffixed(const std::string& name, const char* suffix);

}  // namespace dlock
