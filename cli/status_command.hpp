// dlock status NAME [--json]: whether NAME is locked, by whom (holders and
// hold counts), the remaining lease and the last fencing token granted.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

int status_command(Arguments& args);

}  // namespace dlock_cli
