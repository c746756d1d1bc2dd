// dlock list [PREFIX] [--json]: the locks whose names start with PREFIX, each
// with its holder (host and pid when a `dlock run` holds it), remaining lease
// and last fencing token.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

int list_command(Arguments& args);

}  // namespace dlock_cli
