#include "backends/sql/sql_url.hpp"

#include <cctype>
#include <cstdlib>

#include "common/error.hpp"
#include "common/percent_decode.hpp"

namespace dlock {
namespace sql {
namespace {

constexpr std::size_t kIdentifierMax = 63;  // PostgreSQL's NAMEDATALEN - 1; MySQL allows 64

bool is_identifier(const std::string& name) {
  if (name.empty() || name.size() > kIdentifierMax || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::chrono::milliseconds positive_ms(const std::string& key, const std::string& value) {
  char* end = nullptr;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || parsed <= 0) {
    throw InvalidArgument(key + " must be a positive number of milliseconds, not '" + value + "'");
  }
  return std::chrono::milliseconds(parsed);
}

void apply_option(SqlUrl& parsed, const std::string& key, const std::string& value) {
  if (key == "table") {
    if (!is_identifier(value)) {
      throw InvalidArgument("table=" + value +
                            ": letters, digits and '_' only, 1 to 63 of them, not starting with a digit");
    }
    parsed.table = value;
  } else if (key == "mode") {
    if (value == "session") {
      parsed.mode = SqlMode::session;
    } else if (value == "lease") {
      parsed.mode = SqlMode::lease;
    } else {
      throw InvalidArgument("mode=" + value + ": lease or session");
    }
  } else if (key == "connect_timeout_ms") {
    parsed.connect_timeout = positive_ms(key, value);
  } else if (key == "io_timeout_ms") {
    parsed.io_timeout = positive_ms(key, value);
  } else {
    throw InvalidArgument("unknown option '" + key + "' in a " + scheme_of(parsed.dialect) + " URL");
  }
}

}  // namespace

const char* scheme_of(SqlDialect dialect) {
  return dialect == SqlDialect::postgresql ? "postgresql" : "mysql";
}

std::string SqlUrl::server() const {
  return std::string(scheme_of(dialect)) + "://" + host + ":" + std::to_string(port) + "/" + database;
}

SqlUrl parse_sql_url(const std::string& url) {
  SqlUrl parsed;
  std::string rest;
  if (url.rfind("postgresql://", 0) == 0) {
    parsed.dialect = SqlDialect::postgresql;
    parsed.port = 5432;
    rest = url.substr(13);
  } else if (url.rfind("postgres://", 0) == 0) {  // libpq's other name for it
    parsed.dialect = SqlDialect::postgresql;
    parsed.port = 5432;
    rest = url.substr(11);
  } else if (url.rfind("mysql://", 0) == 0) {
    parsed.dialect = SqlDialect::mysql;
    parsed.port = 3306;
    rest = url.substr(8);
  } else {
    throw InvalidArgument("not a postgresql:// or mysql:// URL: " + url);
  }
  const std::size_t query_start = rest.find('?');
  const std::string query = query_start == std::string::npos ? "" : rest.substr(query_start + 1);
  rest = rest.substr(0, query_start);
  const std::size_t path_start = rest.find('/');
  if (path_start == std::string::npos || path_start + 1 == rest.size()) {
    throw InvalidArgument("no database in " + url + " (it ends in /<database>)");
  }
  parsed.database = percent_decode(rest.substr(path_start + 1), "database");
  std::string authority = rest.substr(0, path_start);
  const std::size_t at = authority.rfind('@');
  if (at != std::string::npos) {
    const std::string credentials = authority.substr(0, at);
    const std::size_t colon = credentials.find(':');
    parsed.user = percent_decode(credentials.substr(0, colon), "user");
    if (colon != std::string::npos)
      parsed.password = percent_decode(credentials.substr(colon + 1), "password");
    authority = authority.substr(at + 1);
  }
  const std::size_t colon = authority.rfind(':');
  parsed.host = authority.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    char* end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || value < 1 || value > 65535)
      throw InvalidArgument("bad port in " + url);
    parsed.port = static_cast<int>(value);
  }
  if (parsed.host.empty()) throw InvalidArgument("no host in " + url);
  std::size_t start = 0;
  while (start < query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string pair = query.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    if (equals == std::string::npos) throw InvalidArgument("option without a value in " + url + ": " + pair);
    apply_option(parsed, pair.substr(0, equals),
                 percent_decode(pair.substr(equals + 1), pair.substr(0, equals)));
    start = end + 1;
  }
  if (parsed.mode == SqlMode::session && parsed.table == "shedlock") {
    throw InvalidArgument("mode=session with table=shedlock: ShedLock's rows are leases (mode=lease)");
  }
  return parsed;
}

}  // namespace sql
}  // namespace dlock
