#pragma once

#include <string>

namespace dlock_test {

// The part of a key Redis Cluster hashes to pick its slot: the bytes between the
// first '{' and the next '}' when there is at least one, else the whole key.
// Keys with equal hash tags share a slot, which is what the lock's keys need.
std::string hash_tag(const std::string& key);

}  // namespace dlock_test
