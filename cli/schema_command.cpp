#include "schema_command.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "dlock.h"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "lock_session.hpp"
#include "log_output.hpp"

namespace dlock_cli {

int schema_command(Arguments& args) {
  std::string url;
  while (args.at_option()) {
    if (args.take_value("--url", url) || take_log_option(args)) continue;
    reject_unknown(args, "schema");
  }
  if (!args.done()) reject_unknown(args, "schema");

  // No connection: the statements follow from the URL alone (its scheme and table=).
  char* text = nullptr;
  const int status = dlock_schema(resolve_url(url).c_str(), &text);
  if (status != DLOCK_OK) fail_with_status(status, "printing the schema");
  const std::unique_ptr<char, void (*)(char*)> script(text, dlock_schema_free);
  std::fputs(script.get(), stdout);
  return exit_code::ok;
}

}  // namespace dlock_cli
