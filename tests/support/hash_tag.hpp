#pragma once

#include <string>

namespace dlock_test {

// The part of a key Redis Cluster hashes to pick its slot: the bytes between the
// first '{' and the next '}' when there is at least one, else the whole key.
// Keys with equal hash tags share a slot, which is what the lock's keys need.
std::string hash_tag(const std::string& key);

// True for a name that is nothing but a hash tag, "{x}": in Redisson's layout
// its fencing counter and channel are those of the lock "x".
bool is_only_a_hash_tag(const std::string& name);

}  // namespace dlock_test
