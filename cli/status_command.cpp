#include "status_command.hpp"

#include <cstdio>
#include <string>

#include "failure.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"

namespace dlock_cli {

int status_command(Arguments& args) {
  std::string url;
  bool json = false;
  while (args.at_option()) {
    if (args.take_value("--url", url)) continue;
    if (args.take_flag("--json")) {
      json = true;
      continue;
    }
    reject_unknown(args, "status");
  }
  if (args.done()) throw usage_error("dlock status: missing the lock NAME");
  const std::string name = args.next();
  if (args.take_flag("--json")) json = true;
  if (!args.done()) reject_unknown(args, "status");

  const LockSession session(resolve_url(url), name);
  const LockStatus status = read_status(session.lock(), session.name());
  if (json) {
    std::printf("%s\n", json_of(status).c_str());
  } else {
    print_text(status);
  }
  // Scripts ask "is it held?" with the exit status alone (dlock status NAME >/dev/null).
  return status.holders.empty() ? exit_code::not_held : exit_code::ok;
}

}  // namespace dlock_cli
