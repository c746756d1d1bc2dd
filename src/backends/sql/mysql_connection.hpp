// SqlConnection on MySQL 8 / MariaDB 10.6+ through MariaDB Connector/C (the
// only file that includes mysql.h is mysql_connection.cpp). Parameters are
// bound in the client, as Connector/J does by default: each `?` becomes a
// literal (bytes as X'..', text quoted and escaped by the connection), so
// several statements go in one round trip (CLIENT_MULTI_STATEMENTS), which
// server-side prepared statements cannot do. The connector's timeouts are
// whole seconds: the URL's milliseconds are rounded up.
#pragma once

#include <memory>

#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

// Connects at once; throws ConnectionError or AuthError naming the server.
std::unique_ptr<SqlConnection> connect_mysql(const SqlUrl& url);

}  // namespace sql
}  // namespace dlock
