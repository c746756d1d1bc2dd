// The session-mode lock's statements (docs/design/backends.md 3.4), one
// implementation per server kind: pg_session_dialect.cpp (advisory locks) and
// mysql_session_dialect.cpp (GET_LOCK). The hold is the session's: the server
// frees it when the session ends, so a hold lives on its own pinned
// connection (session_lock.hpp). Both lock kinds are re-entrant per session,
// which is why two owners must never share one. The key is derived from the
// table name and the lock name by the server (a hash collision only makes two
// names exclude each other); the token comes from sql_token, drawn in the
// grant's round trip.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

struct SessionAttempt {
  bool granted = false;
  std::uint64_t token = 0;  // granted: ours
};

class SessionDialect {
 public:
  virtual ~SessionDialect() = default;

  // Takes `name`'s session lock without waiting, drawing a token when granted.
  virtual SessionAttempt try_lock(SqlConnection& connection, const std::string& name) const = 0;
  // Frees it; false when this session did not hold it.
  virtual bool unlock(SqlConnection& connection, const std::string& name) const = 0;
  // Whether some session holds `name`'s lock (for status and tests).
  virtual bool locked(SqlConnection& connection, const std::string& name) const = 0;

 protected:
  explicit SessionDialect(std::string table) : table_(std::move(table)) {}
  const std::string& table() const { return table_; }

 private:
  std::string table_;
};

// The session-mode statements of `dialect`'s servers; `table` (SqlUrl::table)
// keys the names, so URLs with different tables lock different names.
std::unique_ptr<SessionDialect> session_dialect(SqlDialect dialect, const std::string& table);
std::unique_ptr<SessionDialect> pg_session_dialect(const std::string& table);
std::unique_ptr<SessionDialect> mysql_session_dialect(const std::string& table);

}  // namespace sql
}  // namespace dlock
