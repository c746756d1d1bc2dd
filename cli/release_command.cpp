#include "release_command.hpp"

#include <cstdio>

#include "failure.hpp"
#include "lock_session.hpp"
#include "log_output.hpp"

namespace dlock_cli {

int release_command(Arguments& args) {
  std::string url;
  bool force = false;
  while (args.at_option()) {
    if (args.take_value("--url", url) || take_log_option(args)) continue;
    if (args.take_flag("--force", "-f")) {
      force = true;
      continue;
    }
    reject_unknown(args, "release");
  }
  if (args.done()) throw usage_error("dlock release: missing the lock NAME");
  const std::string name = args.next();
  if (!args.done()) reject_unknown(args, "release");
  if (!force) {
    throw usage_error("dlock release: only the holder releases a lock; --force deletes it "
                      "whoever holds it (the holder learns it lost the lock)");
  }

  const LockSession session(resolve_url(url), name);
  int locked = 0;
  int status = dlock_lock_is_locked(session.lock(), &locked);
  if (status == DLOCK_OK) status = dlock_lock_force_release(session.lock());
  if (status != DLOCK_OK) fail_with_status(status, "releasing '" + name + "'");
  std::printf(locked ? "released '%s'\n" : "'%s' was not locked\n", name.c_str());
  return exit_code::ok;
}

}  // namespace dlock_cli
