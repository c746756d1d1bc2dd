// One connection to a SQL server, the same face for PostgreSQL (libpq) and
// MySQL/MariaDB (MariaDB Connector/C): parameterised statements, a timeout on
// connecting and on every round trip, errors as dlock's (ConnectionError,
// AuthError, ProtocolError...) naming the server. A connection that broke is
// opened again by the next execute(); the statement that met the break is
// reported, never resent (only its caller knows whether resending is safe).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/sql/sql_url.hpp"

namespace dlock {
namespace sql {

// A statement parameter: text, or bytes sent as they are (a lock name).
struct SqlParam {
  std::string value;
  bool binary = false;

  static SqlParam text(std::string value) { return {std::move(value), false}; }
  static SqlParam bytes(std::string value) { return {std::move(value), true}; }
  static SqlParam number(std::int64_t value) { return {std::to_string(value), false}; }
};

using SqlValue = std::optional<std::string>;  // nullopt: SQL NULL; otherwise the value as text
using SqlRow = std::vector<SqlValue>;

struct SqlResult {
  // The rows of the last statement that returned rows (several statements
  // run in one round trip on MySQL).
  std::vector<SqlRow> rows;
  // PostgreSQL: the count of its command tag (rows changed, or rows returned
  // by a SELECT); MySQL: the rows changed by the last statement that returned none.
  std::uint64_t affected = 0;
};

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Runs `statement` with `params` in one round trip. Placeholders are the
  // server's own: $1, $2... on PostgreSQL (prepared once per connection and
  // text), `?` on MySQL (several statements separated by ';' allowed).
  // Throws ConnectionError (no answer within the timeout, a broken
  // connection: the statement may or may not have run), AuthError (no
  // privilege), ProtocolError (any other refusal), each naming the server.
  virtual SqlResult execute(const std::string& statement, const std::vector<SqlParam>& params = {}) = 0;

  // The server's number for this connection's session (PostgreSQL's backend
  // pid, MySQL's connection id); 0 when not connected.
  virtual std::uint64_t session_id() const = 0;
  // "postgresql://127.0.0.1:5432/db" (no user or password): for messages and logs.
  virtual const std::string& server() const = 0;
  // The user the connection logs in as (for GRANT statements in messages).
  virtual const std::string& user() const = 0;
  // The socket to poll for input (a pinned session's loss, NOTIFY messages);
  // -1 when not connected.
  virtual int socket() const = 0;
};

// Opens a connection of the URL's dialect (pg_connection.hpp, mysql_connection.hpp);
// throws UnsupportedError naming the scheme when this build has no client library for it.
std::unique_ptr<SqlConnection> connect(const SqlUrl& url);

}  // namespace sql
}  // namespace dlock
