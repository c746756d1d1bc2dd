#include "status_command.hpp"

#include <cstdio>
#include <string>

#include "failure.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"

namespace dlock_cli {

int status_command(Arguments& args) {
  InspectOptions options = read_inspect_options(args, "status");
  if (args.done()) throw usage_error("dlock status: missing the lock NAME");
  const std::string name = args.next();
  finish_inspect_options(args, options, "status");

  const LockSession session(resolve_url(options.url), name);
  const LockStatus status = read_status(session.lock(), session.name());
  if (options.json) {
    std::printf("%s\n", json_of(status).c_str());
  } else {
    print_text(status);
  }
  // Scripts ask "is it held?" with the exit status alone (dlock status NAME >/dev/null).
  return status.holders.empty() ? exit_code::not_held : exit_code::ok;
}

}  // namespace dlock_cli
