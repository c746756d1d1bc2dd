#include "backends/sql/sql_values.hpp"

#include <cerrno>
#include <cstdlib>

#include "common/error.hpp"

namespace dlock {
namespace sql {
namespace {

[[noreturn]] void unexpected(const SqlValue& value, const char* wanted, const SqlConnection& connection) {
  throw ProtocolError(connection.server() + ": expected " + wanted + ", got " +
                      (value ? "'" + *value + "'" : std::string("NULL")));
}

}  // namespace

std::int64_t integer_of(const SqlValue& value, const SqlConnection& connection) {
  if (!value || value->empty()) unexpected(value, "an integer", connection);
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value->c_str(), &end, 10);
  if (*end != '\0' || errno != 0) unexpected(value, "an integer", connection);
  return parsed;
}

std::uint64_t unsigned_of(const SqlValue& value, const SqlConnection& connection) {
  if (!value || value->empty() || (*value)[0] == '-') unexpected(value, "an unsigned integer", connection);
  char* end = nullptr;
  errno = 0;
  const unsigned long long parsed = std::strtoull(value->c_str(), &end, 10);
  if (*end != '\0' || errno != 0) unexpected(value, "an unsigned integer", connection);
  return parsed;
}

std::vector<std::uint64_t> first_column_unsigned(const SqlResult& result, const SqlConnection& connection) {
  std::vector<std::uint64_t> values;
  for (const SqlRow& row : result.rows) values.push_back(unsigned_of(row.at(0), connection));
  return values;
}

bool boolean_of(const SqlValue& value, const SqlConnection& connection) {
  if (value && (*value == "t" || *value == "1")) return true;
  if (value && (*value == "f" || *value == "0")) return false;
  unexpected(value, "a boolean", connection);
}

std::string hex_of(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex += digits[byte >> 4];
    hex += digits[byte & 0xF];
  }
  return hex;
}

std::string bytes_of_hex(const std::string& hex) {
  const auto nibble = [&hex](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw ProtocolError("not hex from the server: " + hex.substr(0, 64));
  };
  if (hex.size() % 2 != 0) throw ProtocolError("odd hex from the server: " + hex.substr(0, 64));
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    bytes += static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1]));
  }
  return bytes;
}

}  // namespace sql
}  // namespace dlock
