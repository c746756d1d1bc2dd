#include "leader_command.hpp"

#include <time.h>

#include <csignal>
#include <cstdio>
#include <string>

#include "failure.hpp"
#include "json_text.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"
#include "notice.hpp"

namespace dlock_cli {
namespace {

// Unix time in ms as local ISO 8601 time with milliseconds and the UTC
// offset: 2026-11-27T23:14:05.123+01:00.
std::string local_iso_time(int64_t unix_ms) {
  int64_t seconds = unix_ms / 1000;
  int64_t ms = unix_ms % 1000;
  if (ms < 0) {
    ms += 1000;
    seconds -= 1;
  }
  const time_t time = static_cast<time_t>(seconds);
  struct tm local = {};
  if (localtime_r(&time, &local) == nullptr) return std::to_string(unix_ms) + " ms since the epoch";
  char date[64] = "";
  char zone[16] = "";
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &local);
  strftime(zone, sizeof zone, "%z", &local);  // +hhmm
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03d", static_cast<int>(ms));
  std::string offset = zone;
  if (offset.size() == 5) offset.insert(3, ":");
  return std::string(date) + millis + offset;
}

std::string json_of(const std::string& name, const dlock_leader* leader) {
  if (!leader) return "{\"name\":" + json_string(name) + ",\"value\":null,\"term\":null,\"since_ms\":null}";
  return "{\"name\":" + json_string(name) +
         ",\"value\":" + json_string(std::string(leader->value, leader->value_len)) +
         ",\"term\":" + std::to_string(leader->term) + ",\"since_ms\":" + std::to_string(leader->since_ms) +
         "}";
}

void print_text(const std::string& name, const dlock_leader* leader) {
  std::printf("name: %s\n", name.c_str());
  if (!leader) {
    std::printf("leader: none\n");
    return;
  }
  const std::string value(leader->value, leader->value_len);
  std::printf("leader: %s\nterm: %llu\nsince: %s\n", value.c_str(),
              static_cast<unsigned long long>(leader->term), local_iso_time(leader->since_ms).c_str());
}

// One line per leader: what --watch prints.
void print_line(const std::string& name, const dlock_leader* leader, bool json) {
  if (json) {
    std::printf("%s\n", json_of(name, leader).c_str());
  } else {
    std::printf("%s term %llu leader %s\n", local_iso_time(leader->since_ms).c_str(),
                static_cast<unsigned long long>(leader->term), std::string(leader->value, leader->value_len).c_str());
  }
  std::fflush(stdout);
}

struct Watch {
  std::string name;
  bool json;
};

// Prints every leader the library's observer tells, until a signal.
int watch_leaders(const ElectionSession& session, const std::string& name, bool json, SignalWaiter& signals) {
  Watch watch{name, json};
  const int observing = dlock_election_observe(
      session.election(),
      [](const dlock_leader* leader, void* ctx) {
        const auto* watch = static_cast<const Watch*>(ctx);
        print_line(watch->name, leader, watch->json);
      },
      &watch);
  if (observing != DLOCK_OK) fail_with_status(observing, "observing the leaders of '" + name + "'");
  Notice never;
  for (;;) {
    const Wakeup wakeup = signals.wait(never, -1);
    if (wakeup.signal == SIGINT || wakeup.signal == SIGTERM || wakeup.signal == SIGHUP) break;
  }
  dlock_election_observe(session.election(), nullptr, nullptr);
  return exit_code::ok;
}

}  // namespace

int leader_command(Arguments& args, SignalWaiter& signals) {
  bool watch = false;
  InspectOptions options = read_inspect_options(args, "leader", &watch);
  if (args.done()) throw usage_error("dlock leader: missing the election NAME");
  const std::string name = args.next();
  finish_inspect_options(args, options, "leader", &watch);

  const ElectionSession session(resolve_url(options.url), name);
  if (watch) return watch_leaders(session, name, options.json, signals);
  dlock_leader leader;
  const int read = dlock_election_leader(session.election(), &leader);
  if (read != DLOCK_OK && read != DLOCK_NOT_ACQUIRED) {
    fail_with_status(read, "reading the leader of '" + name + "'");
  }
  const dlock_leader* current = read == DLOCK_OK ? &leader : nullptr;
  if (options.json) {
    std::printf("%s\n", json_of(name, current).c_str());
  } else {
    print_text(name, current);
  }
  // Scripts ask "does anyone lead?" with the exit status alone.
  return current ? exit_code::ok : exit_code::no_leader;
}

}  // namespace dlock_cli
