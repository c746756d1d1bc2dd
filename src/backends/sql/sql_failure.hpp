// How each SQL connection reports a refusal or a break: the client library's
// code sorted into one of three kinds, thrown as dlock's error for that kind
// with the server named (pg_connection and mysql_connection sort their codes).
#pragma once

#include <string>

namespace dlock {
namespace sql {

enum class SqlFailure {
  connection,  // no connection, a broken one, no answer in time: ConnectionError
  privilege,   // the user may not do this: AuthError
  refused,     // anything else the server refused: ProtocolError
};

// Throws the error for `failure`: "<server>: <what>".
[[noreturn]] void throw_sql_failure(SqlFailure failure, const std::string& server, const std::string& what);

}  // namespace sql
}  // namespace dlock
