#include "status_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "failure.hpp"
#include "lock_session.hpp"

namespace dlock_cli {
namespace {

struct LockStatus {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> holders;  // id, hold count
  int64_t lease_ms = -2;                                 // PTTL: -2 not locked, -1 no expiry
  std::string last_token;                                // empty when none was ever granted
};

using Holders = std::unique_ptr<dlock_lock_holders, void (*)(dlock_lock_holders*)>;

LockStatus read_status(const LockSession& session) {
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* raw_holders = nullptr;
  const int inspected = dlock_lock_inspect(session.lock(), &info, &raw_holders);
  const Holders holders(raw_holders, dlock_lock_holders_free);
  if (inspected == DLOCK_E_PROTOCOL) {
    fail_with_status(inspected, "'" + session.name() + "' is not a lock");
  }
  if (inspected != DLOCK_OK) fail_with_status(inspected, "reading the state of '" + session.name() + "'");
  LockStatus status;
  status.name = session.name();
  for (size_t i = 0; i < info.holder_count; ++i) {
    const char* id = nullptr;
    size_t id_length = 0;
    int64_t hold_count = 0;
    const int read = dlock_lock_holders_get(holders.get(), i, &id, &id_length, &hold_count);
    if (read != DLOCK_OK) fail_with_status(read, "reading the holders of '" + session.name() + "'");
    status.holders.emplace_back(std::string(id, id_length), hold_count);
  }
  status.lease_ms = info.ttl_ms;
  if (info.has_last_token) status.last_token = std::to_string(info.last_token);
  return status;
}

std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += static_cast<char>(c);
    }
  }
  return quoted + "\"";
}

void print_json(const LockStatus& status) {
  std::string holders;
  for (const auto& [id, count] : status.holders) {
    if (!holders.empty()) holders += ",";
    holders += "{\"id\":" + json_string(id) + ",\"hold_count\":" + std::to_string(count) + "}";
  }
  const bool locked = !status.holders.empty();
  std::printf(
      "{\"name\":%s,\"locked\":%s,\"holders\":[%s],\"lease_remaining_ms\":%s,"
      "\"last_fencing_token\":%s}\n",
      json_string(status.name).c_str(), locked ? "true" : "false", holders.c_str(),
      locked && status.lease_ms >= 0 ? std::to_string(status.lease_ms).c_str() : "null",
      status.last_token.empty() ? "null" : status.last_token.c_str());
}

void print_text(const LockStatus& status) {
  const bool locked = !status.holders.empty();
  std::printf("name: %s\nlocked: %s\n", status.name.c_str(), locked ? "yes" : "no");
  for (const auto& [id, count] : status.holders) {
    std::printf("holder: %s (hold count %lld)\n", id.c_str(), static_cast<long long>(count));
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

}  // namespace

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
  const LockStatus status = read_status(session);
  json ? print_json(status) : print_text(status);
  return exit_code::ok;
}

}  // namespace dlock_cli
