// dlock release --force NAME: delete NAME whoever holds it.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

int release_command(Arguments& args);

}  // namespace dlock_cli
