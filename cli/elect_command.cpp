#include "elect_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "acquisition.hpp"
#include "child_process.hpp"
#include "duration.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"
#include "log_output.hpp"
#include "run_options.hpp"
#include "supervision.hpp"

namespace dlock_cli {
namespace {

struct ElectOptions {
  std::string url;
  std::string name;
  std::string value;  // published while leading; "<hostname>:<pid>" by default
  bool value_given = false;
  std::vector<std::string> command;
  int64_t lease_ms = 0;  // the leadership's watchdog lease; 0 for the library's default
  int64_t grace_ms = default_grace_ms;
};

bool take_elect_option(Arguments& args, ElectOptions& options) {
  std::string value;
  if (args.take_value("--url", options.url) || take_log_option(args)) return true;
  if (args.take_value("--value", options.value)) {
    options.value_given = true;
  } else if (args.take_value("--lease", value)) {
    options.lease_ms = parse_duration_ms(value, "--lease");
    if (options.lease_ms < 3) throw usage_error("--lease: must be at least 3ms");
  } else if (args.take_value("--grace", value)) {
    options.grace_ms = parse_duration_ms(value, "--grace");
  } else {
    return false;
  }
  return true;
}

// Options come before NAME or between NAME and "--".
ElectOptions parse_elect_options(Arguments& args) {
  ElectOptions options;
  while (args.at_option() && args.peek() != "--") {
    if (!take_elect_option(args, options)) reject_unknown(args, "elect");
  }
  if (args.done() || args.peek() == "--") throw usage_error("dlock elect: missing the election NAME");
  options.name = args.next();
  while (args.at_option() && args.peek() != "--") {
    if (!take_elect_option(args, options)) reject_unknown(args, "elect");
  }
  args.take_flag("--");
  options.command = args.rest();
  if (options.command.empty()) throw usage_error("dlock elect: missing the COMMAND to run after NAME --");
  if (!options.value_given) options.value = host_name() + ":" + std::to_string(getpid());
  if (options.value.size() > DLOCK_ELECTION_VALUE_MAX) {
    throw usage_error("--value: longer than " + std::to_string(DLOCK_ELECTION_VALUE_MAX) + " bytes");
  }
  return options;
}

void raise_lost_notice(const char*, uint64_t, uint64_t, void* notice) {
  static_cast<Notice*>(notice)->raise();
}

// The term the next campaign wins, while it lasts.
struct Leadership {
  uint64_t term = 0;
};

void report_lost(const ElectOptions& options, const Leadership& leadership) {
  std::fprintf(stderr,
               "dlock: lost the leadership of '%s' (term %llu) while '%s' ran: %s\n",
               options.name.c_str(), static_cast<unsigned long long>(leadership.term),
               options.command[0].c_str(), describe(loss_cause_seen()));
}

// Campaigns until this candidate leads (true), or a signal sent to dlock ends
// the wait (false, `signal_out` set).
bool campaign(const ElectionSession& session, const ElectOptions& options, SignalWaiter& signals,
              Leadership& leadership, int& signal_out) {
  forget_loss_evidence();
  uint64_t term = 0;
  const Acquisition campaigned = wait_interruptibly(
      [&](dlock_cancel* cancel) {
        return dlock_election_campaign_cancellable(session.election(), options.value.c_str(), -1, cancel,
                                                   &term);
      },
      signals);
  if (campaigned.status == DLOCK_OK && campaigned.signal != 0) dlock_election_resign(session.election());
  if (campaigned.signal != 0) {
    signal_out = campaigned.signal;
    return false;
  }
  if (campaigned.status != DLOCK_OK) {
    fail_with_status(campaigned.status, "campaigning for '" + options.name + "'", campaigned.error);
  }
  leadership.term = term;
  return true;
}

// Gives the leadership up once COMMAND has ended, for the next candidate to
// take over at once. A failure leaves it to lapse with its lease: COMMAND's
// status is still dlock's.
void resign(const ElectionSession& session, const ElectOptions& options) {
  dlock_election_set_lost_callback(session.election(), nullptr, nullptr);
  const int resigned = dlock_election_resign(session.election());
  if (resigned == DLOCK_OK || resigned == DLOCK_E_LOST || resigned == DLOCK_E_NOT_OWNER) return;
  std::fprintf(stderr,
               "dlock: warning: resigning the leadership of '%s' failed (%s): it lapses with its lease\n",
               options.name.c_str(), *dlock_last_error() ? dlock_last_error() : dlock_strerror(resigned));
}

}  // namespace

int elect_command(Arguments& args, SignalWaiter& signals) {
  const ElectOptions options = parse_elect_options(args);
  const ElectionSession session(resolve_url(options.url), options.name, options.lease_ms);

  Notice lost;
  const int set = dlock_election_set_lost_callback(session.election(), raise_lost_notice, &lost);
  if (set != DLOCK_OK) fail_with_status(set, "watching the leadership of '" + options.name + "'");

  Leadership leadership;
  Supervision supervision;
  supervision.grace_ms = options.grace_ms;
  supervision.signals_stop = true;
  supervision.report_lost = [&] { report_lost(options, leadership); };
  for (;;) {
    int signal = 0;
    if (!campaign(session, options, signals, leadership, signal)) return exit_code::signal_base + signal;
    // From here on, a failure that leaves main() frees the election handle,
    // which resigns.
    ChildProcess child(options.command, environment_for_leader(options.name, leadership.term),
                       signals.signals());
    const Outcome outcome = supervise(child, supervision, signals, lost);
    if (outcome.lost && outcome.stop_signal == 0) {
      // Clears the lost leadership from the handle (DLOCK_E_LOST), for the next campaign.
      dlock_election_resign(session.election());
      continue;
    }
    // COMMAND ended by itself, or dlock was told to stop.
    resign(session, options);
    return outcome.status;
  }
}

}  // namespace dlock_cli
