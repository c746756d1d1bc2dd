// The run's results as Markdown: the generated section of docs/reliability.md.
#pragma once

#include <string>
#include <vector>

#include "verdict.hpp"

namespace dlock_safety {

// `phase_errors` names the phases that could not run and why; `command` is
// how the run was started; `mode` "short" or "long".
std::string markdown_report(const std::vector<CellResult>& results,
                            const std::vector<std::string>& phase_errors, const std::string& command,
                            const std::string& mode, double seconds);

}  // namespace dlock_safety
