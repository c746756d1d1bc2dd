#include "primitives/permit_semaphore/permit_semaphore.hpp"

#include "common/error.hpp"
#include "core/channel_wait.hpp"
#include "core/handle_holds.hpp"

namespace dlock {
namespace {

std::string not_held_message(std::string_view id, const std::string& name) {
  return "permit_id: '" + std::string(id) + "' holds no permit of '" + name +
         "' (released already, its lease ended, or never granted)";
}

}  // namespace

void PermitSemaphore::record_grant(const PermitRequest& request, const PermitId& id, int64_t lease_ms,
                                   Clock::time_point sent_at) {
  Hold hold;
  hold.grant_id = id.token;  // random: tells this grant's renewals from any other's
  hold.resource = resource_;
  hold.owner = id.owner;
  hold.field = id.raw;
  hold.count = 1;
  hold.token = id.token;
  hold.lease_ms = lease_ms;
  hold.watchdog = request.lease_ms < 0;
  hold.granted_at = sent_at;
  hold.valid_until = sent_at + trusted_validity(lease_ms);
  hold.renew_at = sent_at + std::chrono::milliseconds(lease_ms / 3);
  hold.taken_through = request.handle;
  hold.on_lost = request.on_lost;
  const Clock::time_point due = hold.watchdog ? hold.renew_at : hold.valid_until;
  core_.holds().insert(std::move(hold));
  core_.watchdog().nudge(due);
  ClientStats::count(core_.stats().grants);
}

std::optional<std::string> PermitSemaphore::acquire(const PermitRequest& request) {
  const PermitId id = PermitId::fresh();
  const int64_t lease_ms = request.lease_ms < 0 ? core_.config().watchdog_timeout_ms : request.lease_ms;
  const std::string lease = std::to_string(lease_ms);
  const std::string what = "acquire a permit of '" + keys().name + "'";
  // The permit's request record (src/lua/requests.lua): a withdrawn acquire grants nothing.
  const std::string record = keys().latch + ":" + id.raw;
  const std::string request_id = core_.request_id();
  auto attempt = [&](bool /*by_message*/) {
    Clock::time_point sent_at;
    // The same id on every retry: acquire.lua grants an id once.
    const Reply reply = [&] {
      try {
        return core_.execute(keys().name, [&](Connection& connection) {
          sent_at = Clock::now();
          return PermitScripts::acquire().run(connection, {keys().name, keys().timeouts, keys().channel, record},
                                              {id.raw, lease, request_id});
        });
      } catch (const ConnectionError&) {
        // The server may still grant it, to nobody: withdrawn, the permit returned.
        withdraw_later(id, record, request_id, what);
        throw;
      }
    }();
    // acquire.lua: {1} granted, {0, ms until the earliest lease ends or -1}.
    const std::size_t size = reply.array_size(what);
    if (size < 1) throw ProtocolError(what + ": unexpected reply " + reply.describe());
    ChannelAttempt<std::string> outcome;
    if (reply.element(0).integer(what) == 1) {
      record_grant(request, id, lease_ms, sent_at);
      outcome.result = id.text();
    } else if (size == 2 && reply.element(1).integer(what) >= 0) {
      outcome.retry_after = std::chrono::milliseconds(reply.element(1).integer(what));
    }
    return outcome;
  };
  return wait_on_channel<std::string>(core_, keys().channel, request.wait_ms, request.cancel, what, attempt);
}

void PermitSemaphore::withdraw_later(const PermitId& id, const std::string& record, const std::string& request,
                                     const std::string& what) {
  PendingRequest withdrawal;
  withdrawal.caller = record;  // the permit's own: a new acquire has a new id
  withdrawal.name = keys().name;
  withdrawal.what = what;
  withdrawal.settle = [resource = resource_, raw = id.raw, record, request,
                       window = std::to_string(core_.retry_window_ms())](Connection& connection) {
    const PermitKeys& keys = resource->keys;
    return PermitScripts::withdraw()
        .run(connection, {keys.name, keys.channel, keys.timeouts, record}, {raw, request, window})
        .integer("withdraw a permit acquire of '" + keys.name + "'");
  };
  core_.settle_later(std::move(withdrawal));
}

bool PermitSemaphore::run_release(const std::string& raw_id) {
  const std::string request_id = core_.request_id();
  return core_.execute(keys().name, [&](Connection& connection) {
    return resource_->release(connection, raw_id, request_id, core_.retry_window_ms());
  });
}

void PermitSemaphore::release(std::string_view text) {
  const PermitId id = PermitId::parse(text, "permit_id");
  core_.throw_if_closed();
  // Out of the table first: from here on the watchdog no longer renews it.
  const std::optional<Hold> hold = core_.holds().take_if_outermost(keys().name, id.owner);
  const bool ours = hold && hold->field == id.raw;
  if (hold && !ours) core_.holds().insert(*hold);  // another id's hold under the same 62 random bits
  bool released = false;
  const Clock::time_point sent_at = Clock::now();
  try {
    released = run_release(id.raw);
  } catch (const Error&) {
    if (!ours || !hold->lost) throw;
    // Lost already: the error that matters is the loss.
  }
  if (!ours) {
    if (!released) throw NotOwnerError(not_held_message(text, keys().name));
    return;
  }
  Hold ended = *hold;
  if (!ended.lost && !released) {
    // Found here first (e.g. the process was paused past the lease): the
    // hold has left the table, so this is the one and only notice.
    ended.end(sent_at);
    LostNotice::of(ended, lost_at_release).deliver(core_.stats(), core_.config().describe());
  }
  if (ended.lost) {
    throw_ended(ended, "release: the permit '" + std::string(text) + "' of '" + keys().name + "'",
                "was lost (its watchdog lease lapsed, or it was taken back before its lease ended, "
                "and it returned to the pool)");
  }
}

bool PermitSemaphore::try_release(std::string_view id) {
  try {
    release(id);
    return true;
  } catch (const LostError&) {
    return false;
  } catch (const NotOwnerError&) {
    return false;
  }
}

bool PermitSemaphore::try_set_permits(int permits) {
  core_.throw_if_closed();
  const std::string count = std::to_string(permits);
  return core_.execute(keys().name, [&](Connection& connection) {
    return PermitScripts::try_set_permits()
        .run(connection, {keys().name, keys().channel}, {count})
        .integer_is_one("try_set_permits '" + keys().name + "'");
  });
}

int64_t PermitSemaphore::available_permits() {
  core_.throw_if_closed();
  return core_.execute(keys().name, [&](Connection& connection) {
    return PermitScripts::available()
        .run(connection, {keys().name, keys().timeouts, keys().channel}, {})
        .integer("available permits of '" + keys().name + "'");
  });
}

void PermitSemaphore::release_taken_through(const void* handle) {
  release_holds_taken_through(core_, handle);
}

}  // namespace dlock
