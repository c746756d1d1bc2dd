// Redis Cluster's key -> slot function: CRC16 (XMODEM) of the key's hash tag
// (the text between the first '{' and the next '}', when not empty) or of the
// whole key, modulo 16384.
#pragma once

#include <string_view>

namespace dlock {

inline constexpr int cluster_slot_count = 16384;

int key_slot(std::string_view key);

}  // namespace dlock
