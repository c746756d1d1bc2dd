// Requests that failed ambiguously: a command timeout or a broken connection,
// after which a stalled server may still run them (a timed-out request is not
// a cancelled one). Each is settled under its request id, so that it takes
// effect exactly once or not at all (src/backends/redis/lua/requests.lua records which):
// *finished*, sent again (a release, a count-down), or *withdrawn*, undone if
// it ran and refused if it runs later (an acquire). The watchdog thread
// settles them in the background, every retry delay, and the caller's next
// call on the same primitive settles its own first, until one is confirmed or
// its retry window ends (the server's record of it is gone then). No thread
// per request.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dlock {

using Clock = std::chrono::steady_clock;

// One round trip that settles a request, safe to repeat under its id;
// returns the server's answer. With a deadline: one try before it (the
// watchdog, close); without: with the client's retries (the caller's next
// call). Made by the backend, which binds its connection.
using Settle = std::function<int64_t(std::optional<Clock::time_point> once_before)>;

struct PendingRequest {
  // The caller's slot: the primitive's key of the caller's request record
  // (its name, its kind and the owner), one pending request per caller.
  std::string caller;
  std::string what;  // the call, for logs and to tell its retry: "release 2 permits of 'x'"
  bool finish = false;  // finished: the caller's next identical call is its retry; else withdrawn
  Settle settle;
  // Optional, both called by whichever settles it (the watchdog, or the
  // caller's next call) with the answer and the time it was sent: what the
  // caller's retry throws (null: nothing), and, once the request is no
  // longer claimed and no mutex is held, a notice of the answer (the lock's
  // release that found its hold gone tells the loss; the callback it calls
  // may release again).
  std::function<std::exception_ptr(int64_t answer, Clock::time_point sent_at)> error_for;
  std::function<void(int64_t answer, Clock::time_point sent_at)> on_answer;
  // When it is given up: ClientCore::settle_later() sets the retry window
  // unless the request sets its own (a lock's release: the hold's validity).
  Clock::time_point give_up_at;
  uint64_t serial = 0;  // set by add(): tells this request from a later one of the same caller
};

// A request as settled: the caller's next call learns of it once.
struct SettledRequest {
  bool finish = false;
  std::string what;
  int64_t answer = 0;
  std::exception_ptr error;  // on_answer's, for the caller's retry to throw
};

class PendingRequests {
 public:
  // Takes over `request`, due at `due` (at once by default).
  void add(PendingRequest request, Clock::time_point due = Clock::now());
  // A copy of `caller`'s request still pending, if any, without settling it
  // (one settled in the background, waiting for its caller, is not).
  std::optional<PendingRequest> peek(const std::string& caller);

  // The caller's next call: settles `caller`'s pending request now, through
  // `run` (which runs a call on a connection, as ClientCore::execute does),
  // and returns it; a finished request settled in the background is returned
  // too, once; nullopt when there is none, or its retry window has ended. Throws what `run` throws: the
  // request stays pending then.
  std::optional<SettledRequest> settle_for(const std::string& caller,
                                          const std::function<int64_t(const PendingRequest&)>& run);

  // Watchdog: the requests to settle now, claimed until settled() or
  // failed(); those whose retry window ended are forgotten, and returned by
  // abandon() when they were still pending.
  std::vector<PendingRequest> due(Clock::time_point now);
  std::vector<PendingRequest> abandon(Clock::time_point now);
  void settled(const PendingRequest& request, int64_t answer, Clock::time_point sent_at);
  void failed(const PendingRequest& request, Clock::time_point retry_at);
  Clock::time_point next_due(Clock::time_point fallback);
  // Closing: every request still pending, forgotten (each gets one last try).
  std::vector<PendingRequest> take_all();

 private:
  struct Entry {
    PendingRequest request;
    Clock::time_point retry_at;
    bool claimed = false;                  // being settled on some thread
    std::optional<int64_t> answer;         // settled in the background, not yet seen by the caller
    std::exception_ptr error;              // with `answer`: on_answer's
  };

  std::mutex mutex_;
  std::condition_variable released_;  // a claim ended
  std::map<std::string, Entry> entries_;
  uint64_t next_serial_ = 0;

  // The entry of `request`, if it is still the caller's pending one.
  Entry* find(const PendingRequest& request);
};

}  // namespace dlock
