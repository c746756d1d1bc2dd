#include "backends/sql/pg_connection.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "backends/sql/sql_failure.hpp"

namespace dlock {
namespace sql {
namespace {

using Clock = std::chrono::steady_clock;

struct PgFinish {
  void operator()(PGconn* connection) const { PQfinish(connection); }
};
using PgHandle = std::unique_ptr<PGconn, PgFinish>;

struct PgClear {
  void operator()(PGresult* result) const { PQclear(result); }
};
using PgResultHandle = std::unique_ptr<PGresult, PgClear>;

std::string trimmed(const char* message) {
  std::string text = message != nullptr ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// SQLSTATE classes: 08 connection exception, 57P0x the server ending the
// session (pg_terminate_backend, shutdown), 28 invalid authorisation,
// 42501 insufficient privilege, 40P01 deadlock detected, 40001 serialization
// failure.
SqlFailure failure_of(const char* sqlstate) {
  const std::string state = sqlstate != nullptr ? sqlstate : "";
  if (state.empty() || state.rfind("08", 0) == 0 || state.rfind("57P0", 0) == 0)
    return SqlFailure::connection;
  if (state == "42501" || state.rfind("28", 0) == 0) return SqlFailure::privilege;
  if (state == "40P01" || state == "40001") return SqlFailure::rolled_back;
  return SqlFailure::refused;
}

class PgConnection : public PgNotifyingConnection {
 public:
  explicit PgConnection(SqlUrl url) : url_(std::move(url)), server_(url_.server()) { open(); }

  SqlResult execute(const std::string& statement, const std::vector<SqlParam>& params) override {
    if (!handle_ || PQstatus(handle_.get()) != CONNECTION_OK) open();
    const auto deadline = Clock::now() + url_.io_timeout;
    const std::string& name = prepared_name(statement, params.size(), deadline);
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats;
    for (const SqlParam& param : params) {
      values.push_back(param.value.data());
      lengths.push_back(static_cast<int>(param.value.size()));
      formats.push_back(param.binary ? 1 : 0);
    }
    if (PQsendQueryPrepared(handle_.get(), name.c_str(), static_cast<int>(params.size()), values.data(),
                            lengths.data(), formats.data(), 0) == 0) {
      broken("sending a statement failed: " + trimmed(PQerrorMessage(handle_.get())));
    }
    PgResultHandle result = await_result(deadline);
    SqlResult answer;
    if (PQresultStatus(result.get()) == PGRES_TUPLES_OK) {
      const int rows = PQntuples(result.get());
      const int columns = PQnfields(result.get());
      for (int row = 0; row < rows; ++row) {
        SqlRow values_of_row;
        for (int column = 0; column < columns; ++column) {
          if (PQgetisnull(result.get(), row, column)) {
            values_of_row.emplace_back();
          } else {
            values_of_row.emplace_back(
                std::string(PQgetvalue(result.get(), row, column),
                            static_cast<std::size_t>(PQgetlength(result.get(), row, column))));
          }
        }
        answer.rows.push_back(std::move(values_of_row));
      }
    }
    answer.affected = std::strtoull(PQcmdTuples(result.get()), nullptr, 10);
    return answer;
  }

  std::uint64_t session_id() const override {
    return handle_ && PQstatus(handle_.get()) == CONNECTION_OK
               ? static_cast<std::uint64_t>(PQbackendPID(handle_.get()))
               : 0;
  }
  int socket() const override { return handle_ ? PQsocket(handle_.get()) : -1; }

  std::vector<std::string> take_notifications() override {
    if (!handle_) broken("not connected");
    if (PQconsumeInput(handle_.get()) == 0 || PQstatus(handle_.get()) != CONNECTION_OK) {
      broken(trimmed(PQerrorMessage(handle_.get())));
    }
    std::vector<std::string> channels;
    while (PGnotify* notification = PQnotifies(handle_.get())) {
      channels.emplace_back(notification->relname);
      PQfreemem(notification);
    }
    return channels;
  }

  const std::string& server() const override { return server_; }
  const std::string& user() const override { return url_.user; }

 private:
  void open() {
    handle_.reset();
    prepared_.clear();
    const std::string port = std::to_string(url_.port);
    const char* keywords[] = {"host", "port", "user", "password", "dbname", "application_name", nullptr};
    const char* values[] = {
        url_.host.c_str(), port.c_str(), url_.user.c_str(), url_.password.c_str(), url_.database.c_str(),
        "dlock",           nullptr};
    handle_.reset(PQconnectStartParams(keywords, values, 0));
    if (!handle_) throw_sql_failure(SqlFailure::connection, server_, "out of memory opening a connection");
    const auto deadline = Clock::now() + url_.connect_timeout;
    for (PostgresPollingStatusType state = PGRES_POLLING_WRITING;;) {
      if (state == PGRES_POLLING_OK) break;
      if (state == PGRES_POLLING_FAILED) {
        const std::string message = trimmed(PQerrorMessage(handle_.get()));
        // libpq gives no SQLSTATE for a refused login; its text says why.
        const bool refused_login = message.find("authentication failed") != std::string::npos ||
                                   message.find("role \"") != std::string::npos ||
                                   message.find("no pg_hba.conf entry") != std::string::npos;
        handle_.reset();
        throw_sql_failure(refused_login ? SqlFailure::privilege : SqlFailure::connection, server_,
                          "cannot connect: " + message);
      }
      if (!wait_for_socket(state == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline)) {
        handle_.reset();
        throw_sql_failure(SqlFailure::connection, server_,
                          "no connection within " + std::to_string(url_.connect_timeout.count()) + " ms");
      }
      state = PQconnectPoll(handle_.get());
    }
    if (PQsetnonblocking(handle_.get(), 1) != 0) broken("cannot make the connection non-blocking");
    // Notices (NOTICE, the FATAL before a terminated session) reach the caller
    // as errors or not at all, never on this process's stderr.
    PQsetNoticeProcessor(
        handle_.get(), [](void*, const char*) {}, nullptr);
  }

  // Whether the socket became ready for `events` before `deadline`.
  bool wait_for_socket(short events, Clock::time_point deadline) {
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      pollfd fd{PQsocket(handle_.get()), events, 0};
      const int ready = poll(&fd, 1, static_cast<int>(left));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
  }

  const std::string& prepared_name(const std::string& statement, std::size_t param_count,
                                   Clock::time_point deadline) {
    const auto known = prepared_.find(statement);
    if (known != prepared_.end()) return known->second;
    const std::string name = "dlock_" + std::to_string(prepared_.size() + 1);
    if (PQsendPrepare(handle_.get(), name.c_str(), statement.c_str(), static_cast<int>(param_count),
                      nullptr) == 0) {
      broken("preparing a statement failed: " + trimmed(PQerrorMessage(handle_.get())));
    }
    await_result(deadline);
    return prepared_.emplace(statement, name).first->second;
  }

  // The one result of the statement sent last; throws its error.
  PgResultHandle await_result(Clock::time_point deadline) {
    PGconn* connection = handle_.get();
    int flushed;
    while ((flushed = PQflush(connection)) == 1) {
      if (!wait_for_socket(POLLOUT, deadline)) timed_out();
    }
    if (flushed < 0) broken("sending failed: " + trimmed(PQerrorMessage(connection)));
    PgResultHandle first;
    for (;;) {
      while (PQisBusy(connection)) {
        if (!wait_for_socket(POLLIN, deadline)) timed_out();
        if (PQconsumeInput(connection) == 0) broken(trimmed(PQerrorMessage(connection)));
      }
      PgResultHandle next(PQgetResult(connection));
      if (!next) break;
      if (!first) first = std::move(next);
    }
    if (!first) broken(trimmed(PQerrorMessage(connection)));
    const ExecStatusType status = PQresultStatus(first.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      const SqlFailure failure = PQstatus(connection) == CONNECTION_OK
                                     ? failure_of(PQresultErrorField(first.get(), PG_DIAG_SQLSTATE))
                                     : SqlFailure::connection;
      const std::string message = trimmed(PQresultErrorMessage(first.get()));
      if (failure == SqlFailure::connection) handle_.reset();
      throw_sql_failure(failure, server_, message);
    }
    return first;
  }

  [[noreturn]] void timed_out() {
    broken("no answer within " + std::to_string(url_.io_timeout.count()) + " ms");
  }

  // The connection is in no known state: dropped, opened again by the next execute().
  [[noreturn]] void broken(const std::string& what) {
    handle_.reset();
    throw_sql_failure(SqlFailure::connection, server_, what);
  }

  SqlUrl url_;
  std::string server_;
  PgHandle handle_;
  std::map<std::string, std::string> prepared_;  // statement text -> its prepared name
};

}  // namespace

std::unique_ptr<PgNotifyingConnection> connect_postgresql(const SqlUrl& url) {
  return std::make_unique<PgConnection>(url);
}

}  // namespace sql
}  // namespace dlock
