// SqlConnection on PostgreSQL through libpq (the only file that includes
// libpq-fe.h is pg_connection.cpp). Each statement text is prepared once per
// connection, then sent with its parameters (bytes in binary, the rest as
// text); results come back as text. Non-blocking calls polled against a
// deadline give the connect and round-trip timeouts in milliseconds.
#pragma once

#include <memory>

#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

// Connects at once; throws ConnectionError or AuthError naming the server.
std::unique_ptr<SqlConnection> connect_postgresql(const SqlUrl& url);

}  // namespace sql
}  // namespace dlock
