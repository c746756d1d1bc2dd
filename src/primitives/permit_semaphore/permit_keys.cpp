#include "primitives/permit_semaphore/permit_keys.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "core/key_names.hpp"

namespace dlock {
namespace {

constexpr std::size_t id_bytes = 16;
constexpr uint64_t dlock_owner_bits = uint64_t{3} << 62;

uint64_t read_be64(const std::string& bytes, std::size_t at) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

void append_be64(std::string& bytes, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>((value >> shift) & 0xff));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

PermitId from_raw(std::string raw) {
  PermitId id;
  id.owner = read_be64(raw, 0);
  id.token = read_be64(raw, 8);
  id.raw = std::move(raw);
  return id;
}

}  // namespace

PermitKeys::PermitKeys(std::string semaphore_name) : name(std::move(semaphore_name)) {
  check_name(name, "channel");
  timeouts = suffixed(name, "timeout");
  channel = prefixed("redisson_sc", name);
  latch = prefixed("dlock_permit_latch", name);
}

PermitId PermitId::fresh() {
  // The system's entropy, not a seeded generator: a fork()ed child must not
  // repeat its parent's ids.
  unsigned char bytes[id_bytes];
  if (getentropy(bytes, id_bytes) != 0) throw InternalError(std::string("getentropy: ") + std::strerror(errno));
  std::string raw(reinterpret_cast<const char*>(bytes), id_bytes);
  raw[0] = static_cast<char>(static_cast<unsigned char>(raw[0]) | (dlock_owner_bits >> 56));
  return from_raw(std::move(raw));
}

PermitId PermitId::parse(std::string_view text, const char* argument) {
  if (text.size() != 2 * id_bytes) {
    throw InvalidArgument(std::string(argument) + ": a permit id is " + std::to_string(2 * id_bytes) +
                          " hex digits, got " + std::to_string(text.size()) + " characters");
  }
  std::string raw;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = hex_digit(text[i]);
    const int low = hex_digit(text[i + 1]);
    if (high < 0 || low < 0) {
      throw InvalidArgument(std::string(argument) + ": a permit id is hex digits only (0-9, a-f)");
    }
    raw.push_back(static_cast<char>(high * 16 + low));
  }
  return from_raw(std::move(raw));
}

std::string PermitId::text(uint64_t owner, uint64_t token) {
  std::string raw;
  append_be64(raw, owner);
  append_be64(raw, token);
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (const char byte : raw) {
    const auto value = static_cast<unsigned char>(byte);
    hex.push_back(digits[value >> 4]);
    hex.push_back(digits[value & 0xf]);
  }
  return hex;
}

}  // namespace dlock
