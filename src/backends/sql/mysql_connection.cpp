#include "backends/sql/mysql_connection.hpp"

#include <mysql.h>

#include "backends/sql/sql_failure.hpp"
#include "backends/sql/sql_values.hpp"
#include "common/error.hpp"

namespace dlock {
namespace sql {
namespace {

struct MysqlClose {
  void operator()(MYSQL* connection) const { mysql_close(connection); }
};
using MysqlHandle = std::unique_ptr<MYSQL, MysqlClose>;

struct MysqlFree {
  void operator()(MYSQL_RES* result) const { mysql_free_result(result); }
};
using MysqlResultHandle = std::unique_ptr<MYSQL_RES, MysqlFree>;

// Client errors 2002-2013 (cannot connect, gone away, lost during a query),
// 1927 (connection killed), 4031 (disconnected for inactivity); 1044, 1045,
// 1142, 1143, 1227: access denied; 1213: a deadlock, the transaction rolled
// back.
SqlFailure failure_of(unsigned int code) {
  switch (code) {
    case 1213:
      return SqlFailure::rolled_back;
    case 1044:
    case 1045:
    case 1142:
    case 1143:
    case 1227:
      return SqlFailure::privilege;
    case 1927:
    case 4031:
      return SqlFailure::connection;
    default:
      return code >= 2000 && code < 3000 ? SqlFailure::connection : SqlFailure::refused;
  }
}

unsigned int whole_seconds(std::chrono::milliseconds timeout) {
  return static_cast<unsigned int>((timeout.count() + 999) / 1000);
}

class MysqlConnection : public SqlConnection {
 public:
  explicit MysqlConnection(SqlUrl url) : url_(std::move(url)), server_(url_.server()) { open(); }

  SqlResult execute(const std::string& statement, const std::vector<SqlParam>& params) override {
    if (!handle_) open();
    const std::string text = bound(statement, params);
    if (mysql_real_query(handle_.get(), text.data(), text.size()) != 0) fail();
    SqlResult answer;
    for (;;) {
      MysqlResultHandle result(mysql_store_result(handle_.get()));
      if (result) {
        answer.rows = rows_of(result.get());
      } else if (mysql_field_count(handle_.get()) == 0) {
        answer.affected = mysql_affected_rows(handle_.get());
      } else {
        fail();
      }
      const int more = mysql_next_result(handle_.get());
      if (more < 0) break;
      if (more > 0) fail();
    }
    return answer;
  }

  std::uint64_t session_id() const override { return handle_ ? mysql_thread_id(handle_.get()) : 0; }
  int socket() const override { return handle_ ? static_cast<int>(mysql_get_socket(handle_.get())) : -1; }
  const std::string& server() const override { return server_; }
  const std::string& user() const override { return url_.user; }

 private:
  void open() {
    handle_.reset(mysql_init(nullptr));
    if (!handle_) throw_sql_failure(SqlFailure::connection, server_, "out of memory opening a connection");
    const unsigned int connect_timeout = whole_seconds(url_.connect_timeout);
    const unsigned int io_timeout = whole_seconds(url_.io_timeout);
    const unsigned int protocol = MYSQL_PROTOCOL_TCP;
    mysql_options(handle_.get(), MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_options(handle_.get(), MYSQL_OPT_READ_TIMEOUT, &io_timeout);
    mysql_options(handle_.get(), MYSQL_OPT_WRITE_TIMEOUT, &io_timeout);
    mysql_options(handle_.get(), MYSQL_OPT_PROTOCOL, &protocol);
    mysql_options(handle_.get(), MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (mysql_real_connect(handle_.get(), url_.host.c_str(), url_.user.c_str(), url_.password.c_str(),
                           url_.database.c_str(), static_cast<unsigned int>(url_.port), nullptr,
                           CLIENT_MULTI_STATEMENTS) == nullptr) {
      const unsigned int code = mysql_errno(handle_.get());
      const std::string message = "cannot connect: " + std::string(mysql_error(handle_.get()));
      handle_.reset();
      throw_sql_failure(failure_of(code), server_, message);
    }
  }

  std::string bound(const std::string& statement, const std::vector<SqlParam>& params) {
    std::string text;
    std::size_t next = 0;
    for (const char c : statement) {
      if (c != '?') {
        text += c;
        continue;
      }
      if (next == params.size()) throw InternalError("more '?' than parameters in " + statement);
      const SqlParam& param = params[next++];
      if (param.binary) {
        text += param.value.empty() ? "''" : "X'" + hex_of(param.value) + "'";
      } else {
        std::string escaped(param.value.size() * 2 + 1, '\0');
        const unsigned long length =
            mysql_real_escape_string(handle_.get(), &escaped[0], param.value.data(), param.value.size());
        text += "'" + escaped.substr(0, length) + "'";
      }
    }
    if (next != params.size()) throw InternalError("fewer '?' than parameters in " + statement);
    return text;
  }

  static std::vector<SqlRow> rows_of(MYSQL_RES* result) {
    std::vector<SqlRow> rows;
    const unsigned int columns = mysql_num_fields(result);
    while (MYSQL_ROW row = mysql_fetch_row(result)) {
      const unsigned long* lengths = mysql_fetch_lengths(result);
      SqlRow values;
      for (unsigned int column = 0; column < columns; ++column) {
        if (row[column] == nullptr) {
          values.emplace_back();
        } else {
          values.emplace_back(std::string(row[column], lengths[column]));
        }
      }
      rows.push_back(std::move(values));
    }
    return rows;
  }

  // Throws the connection's last error; a broken connection is dropped and
  // opened again by the next execute().
  [[noreturn]] void fail() {
    const unsigned int code = mysql_errno(handle_.get());
    const std::string message =
        std::string(mysql_error(handle_.get())) + " (error " + std::to_string(code) + ")";
    const SqlFailure failure = failure_of(code);
    if (failure == SqlFailure::connection) {
      handle_.reset();
    } else {
      // The rest of the round trip is dropped; a transaction it opened is not left open.
      while (mysql_next_result(handle_.get()) == 0) MysqlResultHandle(mysql_store_result(handle_.get()));
      mysql_rollback(handle_.get());
    }
    throw_sql_failure(failure, server_, message);
  }

  SqlUrl url_;
  std::string server_;
  MysqlHandle handle_;
};

}  // namespace

std::unique_ptr<SqlConnection> connect_mysql(const SqlUrl& url) {
  return std::make_unique<MysqlConnection>(url);
}

}  // namespace sql
}  // namespace dlock
