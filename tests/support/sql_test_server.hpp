// PgServer or MariaDbServer behind one face, so a SQL backend test runs
// against both (test_sql_lock's parameter).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace dlock_test {

enum class SqlServerKind { postgresql, mariadb };

class SqlTestServer {
 public:
  virtual ~SqlTestServer() = default;
  // The superuser's URL (dlock's postgresql:// or mysql://) with `options` after '?', if any.
  virtual std::string url(const std::string& options = "") const = 0;
  // A URL for a new user who may log in and read what exists, nothing more.
  virtual std::string reader_url() = 0;
  // A URL (with `options` after '?', if any) for a new user who may write the
  // lock's tables, which exist already, on a server that is read-only for
  // that user, as a replica is: PostgreSQL's default_transaction_read_only
  // for its role (what a hot standby answers too), MariaDB's read_only.
  virtual std::string read_only_url(const std::string& options) = 0;
  // SQL through the server's own client as the superuser; throws on failure.
  virtual std::string query(const std::string& sql) = 0;
  // Ends the connection whose session id (SqlConnection::session_id) is `id`.
  virtual void kill_session(std::uint64_t id) = 0;
  virtual void kill9() = 0;
  virtual void restart() = 0;
};

std::unique_ptr<SqlTestServer> start_sql_server(SqlServerKind kind);
const char* kind_name(SqlServerKind kind);

}  // namespace dlock_test
