// dlock leader NAME [--json]: the current leader of the election NAME (its
// value, term and start), exit 3 when nobody leads.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

int leader_command(Arguments& args);

}  // namespace dlock_cli
