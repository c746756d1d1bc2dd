#include "log_output.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>

#include "dlock.h"

namespace dlock_cli {
namespace {

std::atomic<bool> renewals_failing{false};
std::atomic<LossCause> loss_cause{LossCause::unknown};
// The most detailed level written to stderr; 0 for none (--quiet).
std::atomic<int> level_shown{DLOCK_LOG_WARN};

const char* level_name(int level) {
  switch (level) {
    case DLOCK_LOG_ERROR:
      return "error";
    case DLOCK_LOG_WARN:
      return "warning";
    case DLOCK_LOG_INFO:
      return "info";
    default:
      return "debug";
  }
}

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

// The library's warnings about renewals and lost holds (src/core/watchdog.cpp
// and holds.cpp write them; cli.signals_and_loss checks each cause) are the
// only place the cause of a loss shows through the C ABI.
void note_loss_evidence(const char* message) {
  if (starts_with(message, "watchdog: renewing ") && std::strstr(message, " failed: ")) {
    renewals_failing = true;
  } else if (starts_with(message, "lock '") && std::strstr(message, " lost after ")) {
    if (std::strstr(message, "lease ran out")) {
      loss_cause = renewals_failing ? LossCause::redis_unreachable : LossCause::lease_ran_out;
    } else if (std::strstr(message, "gone or held by another owner")) {
      loss_cause = LossCause::taken_away;
    }
  }
}

void on_record(int level, const char* message, void*) {
  if (level <= DLOCK_LOG_WARN) note_loss_evidence(message);
  if (level <= level_shown) std::fprintf(stderr, "dlock: %s: %s\n", level_name(level), message);
}

void install(int shown) {
  level_shown = shown;
  // Warnings are always taken, shown or not, for loss_cause_seen().
  dlock_set_log_handler(on_record, nullptr, shown > DLOCK_LOG_WARN ? shown : DLOCK_LOG_WARN);
}

}  // namespace

void start_library_log() { install(DLOCK_LOG_WARN); }

bool take_log_option(Arguments& args) {
  if (args.take_flag("--quiet", "-q")) {
    install(0);
  } else if (args.take_flag("--verbose", "-v")) {
    install(DLOCK_LOG_INFO);
  } else if (args.take_flag("-vv")) {
    install(DLOCK_LOG_DEBUG);
  } else {
    return false;
  }
  return true;
}

LossCause loss_cause_seen() { return loss_cause; }

void forget_loss_evidence() {
  renewals_failing = false;
  loss_cause = LossCause::unknown;
}

const char* describe(LossCause cause) {
  switch (cause) {
    case LossCause::redis_unreachable:
      return "Redis could not be reached: renewals failed until the lease ran out";
    case LossCause::lease_ran_out:
      return "its lease ran out before a renewal went through (was dlock paused or starved?)";
    case LossCause::taken_away:
      return "it was force-released or taken by another owner (dlock release --force, a deleted key)";
    default:
      return "its lease ran out or it was taken";
  }
}

}  // namespace dlock_cli
