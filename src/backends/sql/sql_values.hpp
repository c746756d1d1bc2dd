// Reading the text values a SqlConnection returns; a value of the wrong shape
// is the server's fault (ProtocolError naming it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

std::int64_t integer_of(const SqlValue& value, const SqlConnection& connection);
std::uint64_t unsigned_of(const SqlValue& value, const SqlConnection& connection);
// The first value of every row, each unsigned.
std::vector<std::uint64_t> first_column_unsigned(const SqlResult& result, const SqlConnection& connection);
// PostgreSQL's boolean text ("t"/"f"); MySQL's 1/0.
bool boolean_of(const SqlValue& value, const SqlConnection& connection);

// Two lowercase hex digits per byte: how names travel inside statement text.
std::string hex_of(const std::string& bytes);
// hex_of's inverse, either case (MySQL's HEX() answers upper case). Throws
// ProtocolError for text that is not hex.
std::string bytes_of_hex(const std::string& hex);

}  // namespace sql
}  // namespace dlock
