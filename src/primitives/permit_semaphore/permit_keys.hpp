// The Redis names of a leased-permit semaphore, in Redisson's
// RPermitExpirableSemaphore layout, and its permit ids.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dlock {

struct PermitKeys {
  // Throws InvalidArgument for a bad name (core/key_names.hpp).
  explicit PermitKeys(std::string name);

  std::string name;      // the available count, a string
  std::string timeouts;  // {name}:timeout, a ZSET: permit id -> epoch ms its lease ends
  std::string channel;   // redisson_sc:{name}
  std::string latch;     // prefix of the permits' release latches and request records
};

// A permit id: 16 bytes, stored raw in the ZSET and shown as 32 lowercase
// hex digits, as Redisson's ids are. A dlock id's first 8 bytes are its owner
// in the client's holds (with bits 63 and 62 set, which no thread's default
// owner and no explicit owner has) and the last 8 its token, so the id can be
// told from a hold alone.
struct PermitId {
  std::string raw;
  uint64_t owner = 0;
  uint64_t token = 0;

  static PermitId fresh();
  // Throws InvalidArgument naming `argument` unless `text` is 32 hex digits.
  static PermitId parse(std::string_view text, const char* argument);
  static std::string text(uint64_t owner, uint64_t token);
  std::string text() const { return text(owner, token); }
};

}  // namespace dlock
