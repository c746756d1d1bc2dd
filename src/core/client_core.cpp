#include "core/client_core.hpp"

#include "common/random_uuid.hpp"

namespace dlock {

ClientCore::ClientCore(const ClientConfig& config, const SessionFactory& open_session, bool server_answered)
    : config_(config),
      id_(random_uuid()),
      session_(open_session(config_, stats_, server_answered)),
      watchdog_(session_->keeper(), holds_, pending_requests_, stats_, session_->describe(),
                config_.command_timeout_ms, fit_watchdog_lease()) {
  session_->start([this] { watchdog_.renew_now(); });
}

int64_t ClientCore::fit_watchdog_lease() {
  config_.watchdog_timeout_ms = session_->watchdog_lease_ms(config_.watchdog_timeout_ms);
  return config_.watchdog_timeout_ms;
}

ClientCore::~ClientCore() {
  close();
}

std::string ClientCore::field(uint64_t owner) const {
  return id_ + ":" + std::to_string(owner);
}

std::string ClientCore::request_id() {
  return id_ + ":" + std::to_string(++next_request_);
}

void ClientCore::settle_later(PendingRequest request, std::chrono::milliseconds first_try_after) {
  const Clock::time_point now = Clock::now();
  if (request.give_up_at == Clock::time_point{}) {
    request.give_up_at = now + std::chrono::milliseconds(retry_window_ms());
  }
  pending_requests_.add(std::move(request), now + first_try_after);
  watchdog_.nudge(now + first_try_after);
}

int64_t ClientCore::execute_once(PendingRequest request) {
  try {
    return request.settle(std::nullopt);
  } catch (const ConnectionError&) {
    settle_later(std::move(request));
    throw;
  }
}

std::optional<SettledRequest> ClientCore::settle_pending(const std::string& caller) {
  try {
    return pending_requests_.settle_for(
        caller, [](const PendingRequest& request) { return request.settle(std::nullopt); });
  } catch (const Error&) {
    watchdog_.nudge(Clock::now() + watchdog_.retry_delay());  // the watchdog goes on trying
    throw;
  }
}

void ClientCore::throw_if_closed() const {
  if (closed_.load()) throw ClosedError("the client is closed");
}

void ClientCore::release_all_best_effort() {
  const std::vector<Hold> held = holds_.take_all();
  const std::vector<PendingRequest> pending = pending_requests_.take_all();
  if (held.empty() && pending.empty()) return;
  const auto deadline = Clock::now() + std::chrono::milliseconds(config_.command_timeout_ms);
  // Unreachable: a lease runs out on its own, and nothing renews it; a
  // request's record lapses with its window.
  for (const Hold& hold : held) {
    if (hold.lost) continue;
    try {
      session_->release(hold, request_id(), release_latch_ms(hold, retry_window_ms()), deadline);
    } catch (const Error&) {
    }
  }
  // The last try of each request that failed ambiguously, under its own id
  // (closing tells nobody of its answer).
  for (const PendingRequest& request : pending) {
    try {
      request.settle(std::min(deadline, request.give_up_at));
    } catch (const Error&) {
    }
  }
}

void ClientCore::close() {
  {
    std::lock_guard<std::mutex> lock(close_mutex_);
    if (closed_.exchange(true)) return;
  }
  session_->begin_close();
  async_runner_.stop();  // its jobs see the client closed and tell their callers
  watchdog_.stop();
  release_all_best_effort();
  session_->close();
}

}  // namespace dlock
