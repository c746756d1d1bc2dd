#include "run_command.hpp"

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>

#include "acquisition.hpp"
#include "child_process.hpp"
#include "exit_codes.hpp"
#include "lock_session.hpp"
#include "lock_status.hpp"
#include "log_output.hpp"
#include "period_job.hpp"
#include "run_options.hpp"
#include "supervision.hpp"

namespace dlock_cli {
namespace {

// An explicit owner id, random so that this process's hold is told apart
// from every other one on the lock in `dlock status`. Bit 63 stays clear, as
// dlock.h asks of explicit ids.
uint64_t random_owner() {
  std::random_device entropy;
  const uint64_t high = entropy();
  return ((high << 32) | entropy()) & ~(uint64_t{1} << 63);
}

void raise_lost_notice(const char*, uint64_t, uint64_t, void* notice) {
  static_cast<Notice*>(notice)->raise();
}

void raise_lost_permit_notice(const char*, const char*, void* notice) {
  static_cast<Notice*>(notice)->raise();
}

void report_lost(const RunOptions& options) {
  const char* what = options.permits > 0 ? "its permit of" : "the lock";
  std::fprintf(stderr, "dlock: lost %s '%s' while '%s' ran: %s\n", what, options.name.c_str(),
               options.command[0].c_str(), describe(loss_cause_seen()));
}

// dlock's exit code when an acquisition did not end in a hold to run COMMAND
// under (nullopt when it did). A hold that won the race with a signal is
// given back with `give_back`.
std::optional<int> exit_unless_held(const Acquisition& acquisition, const RunOptions& options,
                                    const std::function<void()>& give_back) {
  if (acquisition.status == DLOCK_OK && acquisition.signal != 0) give_back();
  if (acquisition.signal != 0) return exit_code::signal_base + acquisition.signal;
  if (acquisition.status == DLOCK_NOT_ACQUIRED) return options.conflict_exit_code;
  if (acquisition.status != DLOCK_OK) {
    fail_with_status(acquisition.status, "acquiring '" + options.name + "'", acquisition.error);
  }
  return std::nullopt;
}

// How COMMAND is supervised under the hold: a lost hold is reported, signals
// are forwarded (the command decides whether they stop it).
Supervision supervision_of(const RunOptions& options) {
  Supervision supervision;
  supervision.grace_ms = options.grace_ms;
  supervision.report_lost = [&options] { report_lost(options); };
  return supervision;
}

// Ends the hold after COMMAND: kept until the period's end after a success in
// a once-per-period job, released otherwise. Returns dlock's exit code.
int finish(const LockSession& session, uint64_t owner, const RunOptions& options, PeriodJob* job,
           const Outcome& outcome) {
  dlock_lock_set_lost_callback(session.lock(), nullptr, nullptr);
  if (outcome.lost) {
    dlock_lock_release_owner(session.lock(), owner);
    return exit_code::lock_lost;
  }
  if (job && outcome.status == 0) {
    // A kept or a lost hold has left the client already: nothing to release.
    const PeriodJob::Kept kept = job->keep_until_period_end();
    if (kept == PeriodJob::Kept::hold_gone) {
      report_lost(options);
      return exit_code::lock_lost;
    }
    if (kept == PeriodJob::Kept::until_period_end) return outcome.status;
  }
  const int released = dlock_lock_release_owner(session.lock(), owner);
  if (released == DLOCK_E_LOST) {
    report_lost(options);
    return exit_code::lock_lost;
  }
  if (released != DLOCK_OK) fail_with_status(released, "releasing '" + options.name + "'");
  return outcome.status;
}

// dlock run --permits N: COMMAND runs under one of N leased permits of the
// semaphore NAME (at most N runs at once), renewed by the watchdog.
int run_with_permit(const RunOptions& options, SignalWaiter& signals) {
  const PermitSession session(resolve_url(options.url), options.name, options.permits, options.lease_ms);
  Notice lost;
  dlock_permit_semaphore_set_lost_callback(session.semaphore(), raise_lost_permit_notice, &lost);
  char id[DLOCK_PERMIT_ID_SIZE] = "";
  const Acquisition acquisition = wait_interruptibly(
      [&](dlock_cancel* cancel) {
        return dlock_permit_semaphore_acquire(session.semaphore(), options.wait_ms, -1, cancel, id,
                                              sizeof id);
      },
      signals);
  if (const std::optional<int> code = exit_unless_held(
          acquisition, options, [&] { dlock_permit_semaphore_release(session.semaphore(), id); })) {
    return *code;
  }

  ChildProcess child(options.command, environment_for_permit(options.name, id), signals.signals());
  const Outcome outcome = supervise(child, supervision_of(options), signals, lost);
  dlock_permit_semaphore_set_lost_callback(session.semaphore(), nullptr, nullptr);
  const int released = dlock_permit_semaphore_release(session.semaphore(), id);
  if (outcome.lost || released == DLOCK_E_LOST) {
    if (!outcome.lost) report_lost(options);
    return exit_code::lock_lost;
  }
  if (released != DLOCK_OK) fail_with_status(released, "releasing the permit of '" + options.name + "'");
  return outcome.status;
}

}  // namespace

int run_command(Arguments& args, SignalWaiter& signals) {
  const RunOptions options = parse_run_options(args);
  if (options.permits > 0) return run_with_permit(options, signals);
  const std::string url = resolve_url(options.url);
  const LockSession session(url, options.name, options.lease_ms);

  // A key NAME that is not a lock fails as in `dlock status`, before any wait
  // for it (a hash would never be released) or the acquire's WRONGTYPE.
  fail_unless_a_lock(session.lock(), options.name);

  Notice lost;
  dlock_lock_set_lost_callback(session.lock(), raise_lost_notice, &lost);
  const uint64_t owner = random_owner();
  const bool once_per_period = options.hold_after_success_ms > 0;
  // Without --wait or -n, a once-per-period run waits at most until its
  // period ends: waiting on, it would run in the next period once the kept
  // hold lapses, and runs that cron starts every period would pile up.
  const bool waits_out_the_period = once_per_period && options.wait_ms < 0;
  const int64_t period_end =
      waits_out_the_period ? Period::containing(unix_time_ms(), options.hold_after_success_ms).end_ms : 0;
  const int64_t wait_ms = waits_out_the_period ? period_end - unix_time_ms() : options.wait_ms;
  const Acquisition acquisition = acquire_interruptibly(session.lock(), owner, wait_ms, signals);
  if (const std::optional<int> code =
          exit_unless_held(acquisition, options, [&] { dlock_lock_release_owner(session.lock(), owner); })) {
    return *code;
  }
  if (waits_out_the_period && unix_time_ms() >= period_end) {
    // Taken just as the period's kept hold lapsed, by the wait's last attempt.
    dlock_lock_release_owner(session.lock(), owner);
    return options.conflict_exit_code;
  }

  // The period is the one in which the lock was acquired. From here on, a
  // failure that leaves main() frees the lock handle, which releases the hold.
  std::unique_ptr<PeriodJob> job;
  if (once_per_period) {
    job = std::make_unique<PeriodJob>(session.lock(), owner, options.hold_after_success_ms);
  }
  if (job && options.max_attempts > 0 && job->record_attempt(options.max_attempts) == 0) {
    dlock_lock_release_owner(session.lock(), owner);
    std::fprintf(stderr, "dlock: '%s' already had %lld attempts in this period; giving up\n",
                 options.name.c_str(), static_cast<long long>(options.max_attempts));
    return exit_code::max_attempts;
  }

  // Who holds it, for dlock status and dlock list on other machines. Only a
  // display aid: a failure here is no reason not to run the job (a real
  // connection problem shows up in the renewals).
  dlock_lock_note_holder(session.lock(), owner, holder_note_of_this_process().c_str());

  ChildProcess child(options.command, environment_for_command(options.name, acquisition.token),
                     signals.signals());
  const Outcome outcome = supervise(child, supervision_of(options), signals, lost);
  return finish(session, owner, options, job.get(), outcome);
}

}  // namespace dlock_cli
