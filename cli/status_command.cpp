#include "status_command.hpp"

#include <hiredis/hiredis.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "command_lua_scripts.hpp"
#include "direct_connection.hpp"
#include "failure.hpp"
#include "lock_keys.hpp"
#include "lock_session.hpp"
#include "script.hpp"

namespace dlock_cli {
namespace {

dlock::Script lock_status_script("lock_status", dlock::lua::lock_status);

struct LockStatus {
  std::string name;
  std::vector<std::pair<std::string, std::string>> holders;  // field, hold count
  long long lease_ms = -2;                                   // PTTL: -2 not locked, -1 no expiry
  std::string last_token;                                    // empty when none was ever granted
};

std::string as_string(const redisReply* reply) {
  return std::string(reply->str, reply->len);
}

LockStatus read_status(const std::string& url, const std::string& name) {
  dlock::Connection redis(direct_connection_config(url));
  const dlock::LockKeys keys(name);
  const dlock::Reply reply = lock_status_script.run(redis, {keys.name, keys.counter}, {});
  const std::string kind = as_string(reply->element[0]);
  if (kind != "hash" && kind != "none") {
    throw Failure(exit_code::redis_unavailable, "'" + name + "' is not a lock: its key holds a " + kind);
  }
  LockStatus status;
  status.name = name;
  const redisReply* fields = reply->element[1];
  for (size_t i = 0; i + 1 < fields->elements; i += 2) {
    status.holders.emplace_back(as_string(fields->element[i]), as_string(fields->element[i + 1]));
  }
  status.lease_ms = reply->element[2]->integer;
  if (reply->element[3]->type == REDIS_REPLY_STRING) status.last_token = as_string(reply->element[3]);
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
    holders += "{\"id\":" + json_string(id) + ",\"hold_count\":" + count + "}";
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
    std::printf("holder: %s (hold count %s)\n", id.c_str(), count.c_str());
  }
  if (locked) {
    if (status.lease_ms >= 0) {
      std::printf("lease remaining: %lld ms\n", status.lease_ms);
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

  url = resolve_url(url);
  // Checks the URL, the credentials and the name the way every dlock client does.
  const LockSession session(url, name);
  const LockStatus status = read_status(url, name);
  json ? print_json(status) : print_text(status);
  return exit_code::ok;
}

}  // namespace dlock_cli
