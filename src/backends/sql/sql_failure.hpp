// How each SQL connection reports a refusal or a break: the client library's
// code sorted into one of four kinds, thrown as dlock's error for that kind
// with the server named (pg_connection and mysql_connection sort their codes).
#pragma once

#include <string>

#include "common/error.hpp"

namespace dlock {
namespace sql {

enum class SqlFailure {
  connection,   // no connection, a broken one, no answer in time: ConnectionError
  privilege,    // the user may not do this: AuthError
  rolled_back,  // a deadlock broken, a serialization failure: RolledBackError
  refused,      // anything else the server refused: ProtocolError
};

// The server rolled the statement's transaction back to break a deadlock (or
// a serialization failure) and applied none of it: the transaction is safe to
// run again from its start (in_transaction does). A lock wait that timed out
// is no such case: it waited as long as it may, and is refused.
struct RolledBackError : ProtocolError {
  using ProtocolError::ProtocolError;
};

// Throws the error for `failure`: "<server>: <what>".
[[noreturn]] void throw_sql_failure(SqlFailure failure, const std::string& server, const std::string& what);

}  // namespace sql
}  // namespace dlock
