// dlock schema [--url URL]: print the statements an SQL backend runs to create
// its lock table and token source for URL (docs/sql.md), for an administrator
// to run when the client's user may not create them.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

int schema_command(Arguments& args);

}  // namespace dlock_cli
