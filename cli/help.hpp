// The text of `dlock --help` (the full reference is dlock(1) and docs/cli.md).
#pragma once

namespace dlock_cli {

extern const char* const help_text;

}  // namespace dlock_cli
