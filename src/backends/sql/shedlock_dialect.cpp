#include "backends/sql/shedlock_dialect.hpp"

#include <unistd.h>


#include "common/error.hpp"

namespace dlock {
namespace sql {
namespace {

constexpr std::size_t kNameCharactersMax = 64;  // ShedLock's name VARCHAR(64)
constexpr std::size_t kLockedByMax = 255;       // ShedLock's locked_by VARCHAR(255)

// The characters of `text` when it is well-formed UTF-8 (no overlong forms,
// surrogates or values past U+10FFFF); -1 otherwise.
long utf8_characters(const std::string& text) {
  long characters = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned long code = 0;
    if (lead < 0x80) {
      length = 1;
      code = lead;
    } else if ((lead & 0xe0) == 0xc0) {
      length = 2;
      code = lead & 0x1fu;
    } else if ((lead & 0xf0) == 0xe0) {
      length = 3;
      code = lead & 0x0fu;
    } else if ((lead & 0xf8) == 0xf0) {
      length = 4;
      code = lead & 0x07u;
    } else {
      return -1;
    }
    if (i + length > text.size()) return -1;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return -1;
      code = (code << 6) | (next & 0x3fu);
    }
    static constexpr unsigned long kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return -1;
    i += length;
    ++characters;
  }
  return characters;
}

std::string host_name() {
  // 255 bytes is the longest host name Linux and macOS allow (macOS has no
  // HOST_NAME_MAX), and gethostname() may leave out the NUL.
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

}  // namespace

ShedLockDialect::ShedLockDialect(RowStatements statements)
    : LeaseDialect(kShedLockTable, std::move(statements)), locked_by_prefix_(host_name() + "/dlock/") {}

void ShedLockDialect::check_name(const std::string& name) const {
  const long characters = utf8_characters(name);
  if (characters < 1 || static_cast<std::size_t>(characters) > kNameCharactersMax) {
    throw InvalidArgument(
        "name: a name in ShedLock's table is UTF-8 of 1 to 64 characters (its VARCHAR(64))");
  }
}

std::string ShedLockDialect::stored_owner(const std::string& owner) const {
  return (locked_by_prefix_ + owner).substr(0, kLockedByMax);
}

std::string ShedLockDialect::holder_of(const std::string& locked_by) const {
  if (locked_by.rfind(locked_by_prefix_, 0) == 0) return locked_by.substr(locked_by_prefix_.size());
  return locked_by;
}

std::vector<std::uint64_t> ShedLockDialect::renewed_tokens(const std::vector<LeaseHold>& holds,
                                                           const SqlResult& kept) {
  std::vector<std::uint64_t> tokens;
  for (const SqlRow& row : kept.rows) {
    for (const LeaseHold& hold : holds) {
      if (row.at(0) == hold.name && row.at(1) == hold.grant) {
        tokens.push_back(hold.token);
        break;
      }
    }
  }
  return tokens;
}

std::unique_ptr<LeaseDialect> shedlock_dialect(SqlDialect dialect) {
  return dialect == SqlDialect::postgresql ? pg_shedlock_dialect() : mysql_shedlock_dialect();
}

}  // namespace sql
}  // namespace dlock
