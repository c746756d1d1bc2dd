#include "list_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "failure.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"

namespace dlock_cli {
namespace {

using LockHandle = std::unique_ptr<dlock_lock, void (*)(dlock_lock*)>;

int collect_name(const char* name, size_t name_length, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name, name_length);
  return 0;
}

std::vector<std::string> hash_names(dlock_client* client, const std::string& prefix) {
  std::vector<std::string> names;
  const int listed = dlock_lock_list(client, prefix.c_str(), collect_name, &names);
  if (listed != DLOCK_OK) fail_with_status(listed, "listing the locks under '" + prefix + "'");
  return names;
}

// The lock's state, or false when the hash under the prefix is not a lock (a
// hash of another program, another primitive's) or was released meanwhile.
bool read_lock(dlock_client* client, const std::string& name, LockStatus& status) {
  dlock_lock* raw = nullptr;
  // A hash whose name is not a valid lock name cannot be a lock.
  if (dlock_lock_new(client, name.c_str(), &raw) != DLOCK_OK) return false;
  const LockHandle lock(raw, dlock_lock_free);
  return try_read_status(lock.get(), name, status) == DLOCK_OK && !status.holders.empty();
}

void print_line(const LockStatus& status) {
  for (const LockHolderStatus& holder : status.holders) {
    const std::string where = holder.host.empty() ? holder.id : holder.host + " pid " + holder.pid;
    std::printf("%s\t%s\t%s\t%s\n", status.name.c_str(), where.c_str(),
                status.lease_ms >= 0 ? (std::to_string(status.lease_ms) + "ms").c_str() : "no-expiry",
                status.last_token.empty() ? "-" : status.last_token.c_str());
  }
}

}  // namespace

int list_command(Arguments& args) {
  InspectOptions options = read_inspect_options(args, "list");
  const std::string prefix = args.done() ? "" : args.next();
  finish_inspect_options(args, options, "list");
  const bool json = options.json;

  const ClientHandle client = open_client(resolve_url(options.url));
  std::string listing;
  for (const std::string& name : hash_names(client.get(), prefix)) {
    LockStatus status;
    if (!read_lock(client.get(), name, status)) continue;
    if (json) {
      listing += (listing.empty() ? "" : ",") + json_of(status);
    } else {
      print_line(status);
    }
  }
  if (json) std::printf("[%s]\n", listing.c_str());
  return exit_code::ok;
}

}  // namespace dlock_cli
