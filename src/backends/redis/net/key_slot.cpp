#include "backends/redis/net/key_slot.hpp"

#include <cstdint>

namespace dlock {
namespace {

// CRC-16/XMODEM (polynomial 0x1021, initial value 0), bit by bit: a key is
// hashed once per command, so a table would buy nothing measurable.
uint16_t crc16(std::string_view bytes) {
  uint16_t crc = 0;
  for (const char byte : bytes) {
    crc = static_cast<uint16_t>(crc ^ (static_cast<uint16_t>(static_cast<unsigned char>(byte)) << 8));
    for (int bit = 0; bit < 8; ++bit) {
      crc =
          (crc & 0x8000) != 0 ? static_cast<uint16_t>((crc << 1) ^ 0x1021) : static_cast<uint16_t>(crc << 1);
    }
  }
  return crc;
}

std::string_view hash_tag_or_key(std::string_view key) {
  const std::size_t open = key.find('{');
  if (open == std::string_view::npos) return key;
  const std::size_t close = key.find('}', open + 1);
  if (close == std::string_view::npos || close == open + 1) return key;
  return key.substr(open + 1, close - open - 1);
}

}  // namespace

int key_slot(std::string_view key) {
  return crc16(hash_tag_or_key(key)) % cluster_slot_count;
}

}  // namespace dlock
