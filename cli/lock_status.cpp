#include "lock_status.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <sstream>

#include "json_text.hpp"
#include "lock_session.hpp"
#include "log_output.hpp"

namespace dlock_cli {
namespace {

using Holders = std::unique_ptr<dlock_lock_holders, void (*)(dlock_lock_holders*)>;
using NoteText = std::unique_ptr<char, void (*)(char*)>;

// A kept hold's field is its holder's with ":kept" appended (see dlock run's
// --hold-after-success): the note was written under the holder's own field.
bool same_holder(const std::string& holder_id, const std::string& noted_id) {
  static const std::string kept = ":kept";
  if (holder_id == noted_id) return true;
  return holder_id.size() == noted_id.size() + kept.size() &&
         holder_id.compare(0, noted_id.size(), noted_id) == 0 &&
         holder_id.compare(noted_id.size(), kept.size(), kept) == 0;
}

// "host=H pid=P" into the holder's host and pid; other words are ignored.
void apply_note(const std::string& note, LockHolderStatus& holder) {
  std::istringstream words(note);
  std::string word;
  while (words >> word) {
    if (word.rfind("host=", 0) == 0) holder.host = word.substr(5);
    if (word.rfind("pid=", 0) == 0) holder.pid = word.substr(4);
  }
}

void read_note(dlock_lock* lock, const std::string& name, LockStatus& status) {
  char* raw_holder = nullptr;
  char* raw_note = nullptr;
  const int read = dlock_lock_read_holder_note(lock, &raw_holder, &raw_note);
  const NoteText noted_holder(raw_holder, dlock_lock_holder_note_free);
  const NoteText note(raw_note, dlock_lock_holder_note_free);
  if (read == DLOCK_E_UNSUPPORTED) return;  // a backend without notes: the holders' ids only
  if (read != DLOCK_OK) fail_with_status(read, "reading the holder note of '" + name + "'");
  if (!noted_holder) return;
  for (LockHolderStatus& holder : status.holders) {
    if (same_holder(holder.id, noted_holder.get())) apply_note(note.get(), holder);
  }
}

std::string json_or_null(const std::string& text) {
  return text.empty() ? "null" : json_string(text);
}

}  // namespace

InspectOptions read_inspect_options(Arguments& args, const std::string& command, bool* watch) {
  InspectOptions options;
  while (args.at_option()) {
    if (args.take_value("--url", options.url) || take_log_option(args)) continue;
    if (args.take_flag("--json")) {
      options.json = true;
      continue;
    }
    if (watch != nullptr && args.take_flag("--watch")) {
      *watch = true;
      continue;
    }
    reject_unknown(args, command);
  }
  return options;
}

void finish_inspect_options(Arguments& args, InspectOptions& options, const std::string& command,
                            bool* watch) {
  while (!args.done()) {
    if (args.take_flag("--json")) {
      options.json = true;
    } else if (watch != nullptr && args.take_flag("--watch")) {
      *watch = true;
    } else {
      reject_unknown(args, command);
    }
  }
}

namespace {

[[noreturn]] void fail_not_a_lock(const std::string& name) {
  fail_with_status(DLOCK_E_PROTOCOL, "'" + name + "' is not a lock", dlock_last_error());
}

}  // namespace

LockStatus read_status(dlock_lock* lock, const std::string& name) {
  LockStatus status;
  const int read = try_read_status(lock, name, status);
  if (read == DLOCK_E_PROTOCOL) fail_not_a_lock(name);
  if (read == DLOCK_E_UNSUPPORTED) fail_with_status(read, "reading the state of '" + name + "'");
  return status;
}

void fail_unless_a_lock(dlock_lock* lock, const std::string& name) {
  LockStatus status;
  if (try_read_status(lock, name, status) == DLOCK_E_PROTOCOL) fail_not_a_lock(name);
}

int try_read_status(dlock_lock* lock, const std::string& name, LockStatus& status) {
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* raw_holders = nullptr;
  const int inspected = dlock_lock_inspect(lock, &info, &raw_holders);
  const Holders holders(raw_holders, dlock_lock_holders_free);
  if (inspected == DLOCK_E_PROTOCOL || inspected == DLOCK_E_UNSUPPORTED) return inspected;
  if (inspected != DLOCK_OK) fail_with_status(inspected, "reading the state of '" + name + "'");
  status = LockStatus{};
  status.name = name;
  for (size_t i = 0; i < info.holder_count; ++i) {
    const char* id = nullptr;
    size_t id_length = 0;
    int64_t hold_count = 0;
    const int read = dlock_lock_holders_get(holders.get(), i, &id, &id_length, &hold_count);
    if (read != DLOCK_OK) fail_with_status(read, "reading the holders of '" + name + "'");
    status.holders.push_back({std::string(id, id_length), hold_count, "", ""});
  }
  status.lease_ms = info.ttl_ms;
  if (info.has_last_token) status.last_token = std::to_string(info.last_token);
  if (!status.holders.empty()) read_note(lock, name, status);
  return DLOCK_OK;
}

std::string host_name() {
  // 255 bytes is the longest host name Linux and macOS allow (HOST_NAME_MAX
  // is not defined on macOS), and gethostname() may leave out the NUL.
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return host[0] ? host : "unknown";
}

std::string holder_note_of_this_process() {
  return "host=" + host_name() + " pid=" + std::to_string(getpid());
}

std::string json_of(const LockStatus& status) {
  std::string holders;
  for (const LockHolderStatus& holder : status.holders) {
    if (!holders.empty()) holders += ",";
    holders += "{\"id\":" + json_string(holder.id) + ",\"hold_count\":" + std::to_string(holder.hold_count) +
               ",\"host\":" + json_or_null(holder.host) +
               ",\"pid\":" + (holder.pid.empty() ? "null" : holder.pid) + "}";
  }
  const bool locked = !status.holders.empty();
  return "{\"name\":" + json_string(status.name) + ",\"locked\":" + (locked ? "true" : "false") +
         ",\"holders\":[" + holders + "],\"lease_remaining_ms\":" +
         (locked && status.lease_ms >= 0 ? std::to_string(status.lease_ms) : "null") +
         ",\"last_fencing_token\":" + (status.last_token.empty() ? "null" : status.last_token) + "}";
}

void print_text(const LockStatus& status) {
  const bool locked = !status.holders.empty();
  std::printf("name: %s\nlocked: %s\n", status.name.c_str(), locked ? "yes" : "no");
  for (const LockHolderStatus& holder : status.holders) {
    std::printf("holder: %s (hold count %lld)\n", holder.id.c_str(),
                static_cast<long long>(holder.hold_count));
    if (!holder.host.empty())
      std::printf("holder host: %s, pid %s\n", holder.host.c_str(), holder.pid.c_str());
  }
  if (locked) {
    if (status.lease_ms >= 0) {
      std::printf("lease remaining: %lld ms\n", static_cast<long long>(status.lease_ms));
    } else {
      std::printf("lease remaining: no expiry\n");
    }
  }
  std::printf("last fencing token: %s\n", status.last_token.empty() ? "none" : status.last_token.c_str());
}

}  // namespace dlock_cli
