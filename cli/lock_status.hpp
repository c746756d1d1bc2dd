// One lock's state as `dlock status` and `dlock list` show it: holders (with the
// host and pid a `dlock run` holder noted), remaining lease, last token.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "dlock.h"

namespace dlock_cli {

struct LockHolderStatus {
  std::string id;  // <client-id>:<owner-id>[:kept]
  int64_t hold_count = 0;
  std::string host;  // from the holder's note; empty when it left none
  std::string pid;
};

struct LockStatus {
  std::string name;
  std::vector<LockHolderStatus> holders;
  int64_t lease_ms = -2;   // PTTL: -2 not locked, -1 no expiry
  std::string last_token;  // empty when none was ever granted
};

// The options `status` and `list` share: --url URL and --json, before their
// one operand, and --json after it.
struct InspectOptions {
  std::string url;
  bool json = false;
};
// Up to the operand; `watch` (when given) takes --watch, which only `dlock leader` has.
InspectOptions read_inspect_options(Arguments& args, const std::string& command, bool* watch = nullptr);
void finish_inspect_options(Arguments& args, InspectOptions& options, const std::string& command,
                            bool* watch = nullptr);

// DLOCK_OK with `status` filled, DLOCK_E_PROTOCOL when the key is not a lock
// (another type of key, or a hash whose fields are not lock holders), or
// DLOCK_E_UNSUPPORTED when the backend cannot be inspected; throws a Failure
// for any other error (an unreachable server...).
int try_read_status(dlock_lock* lock, const std::string& name, LockStatus& status);
// As try_read_status, and a key that is not a lock, or a backend that cannot
// be inspected, is a Failure too.
LockStatus read_status(dlock_lock* lock, const std::string& name);
// A Failure when NAME's key is not a lock (before a wait for it, which a
// hash would never end); nothing on a backend that cannot be inspected,
// whose names are never anything but locks.
void fail_unless_a_lock(dlock_lock* lock, const std::string& name);

// This machine's host name ("unknown" when it has none).
std::string host_name();

// What `dlock run` notes beside its hold: "host=<hostname> pid=<its pid>".
std::string holder_note_of_this_process();

std::string json_of(const LockStatus& status);  // one JSON object, no newline
void print_text(const LockStatus& status);

}  // namespace dlock_cli
