// Leader election's entry points: a campaign is the lock's acquire (blocking
// or on the async runner) of the candidate's own owner id on the election's
// resource; the rest is primitives/election.
#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "c_api/async_calls.hpp"
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_ops.hpp"
#include "primitives/election/election.hpp"

static_assert(dlock::kLeaderValueMax == DLOCK_ELECTION_VALUE_MAX, "one limit on a leader's value");

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::with_ops;

// Candidates' owner ids: one per handle, so any thread may act for it. Only
// election handles hold an election's lock, so they need not differ from
// threads' ids.
uint64_t next_candidate() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

std::string checked_value(const char* value, const char* argument) {
  std::string text = value != nullptr ? value : "";
  dlock::check_leader_value(text, argument);
  return text;
}

dlock::AcquireRequest campaign_request(dlock_election* election, int64_t wait_ms, dlock_cancel* cancel) {
  dlock::AcquireRequest request;
  request.owner = election->owner;
  request.wait_ms = dlock::c_api::checked_wait(wait_ms);
  request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
  request.handle = &election->lock;
  request.on_lost = election->lock.on_lost;
  return request;
}

void fill(const dlock::Leader& leader, dlock_leader* out) {
  std::memset(out, 0, sizeof *out);
  out->term = leader.term;
  out->since_ms = leader.since_ms;
  out->value_len = std::min<std::size_t>(leader.value.size(), DLOCK_ELECTION_VALUE_MAX);
  std::memcpy(out->value, leader.value.data(), out->value_len);
}

int campaign(dlock_election* election, const char* value, int64_t wait_ms, dlock_cancel* cancel,
             uint64_t* term_out) {
  return guarded([&] {
    require(election, "election");
    const std::string text = checked_value(value, "value");
    const dlock::AcquireRequest request = campaign_request(election, wait_ms, cancel);
    return with_ops(&election->lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore& core) {
      std::optional<uint64_t> term = dlock::Election(core, election->ops).current_term(election->owner, ops);
      if (!term) {
        election->ops->set_value(text);
        term = ops.acquire(request);
      }
      if (!term) return DLOCK_NOT_ACQUIRED;
      if (term_out != nullptr) *term_out = *term;
      return DLOCK_OK;
    });
  });
}

}  // namespace

extern "C" {

int dlock_election_new(dlock_client* client, const char* name, dlock_election** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    client->client->core();  // DLOCK_E_CLOSED for a closed client
    auto election = std::make_unique<dlock_election>();
    election->ops = client->backend->election(name);
    election->lock.client = client->client;
    election->lock.ops = election->ops->leadership();
    election->owner = next_candidate();
    *out = election.release();
    return DLOCK_OK;
  });
}

void dlock_election_free(dlock_election* election) {
  if (election == nullptr) return;
  dlock_election_observe(election, nullptr, nullptr);
  election->lock.on_lost->clear();
  guarded([&] {
    return with_ops(&election->lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.release_taken_through(&election->lock);
      return DLOCK_OK;
    });
  });
  delete election;
}

const char* dlock_election_name(const dlock_election* election) {
  return election != nullptr ? election->ops->name().c_str() : nullptr;
}

int dlock_election_campaign(dlock_election* election, const char* value, int64_t wait_ms, uint64_t* term_out) {
  return campaign(election, value, wait_ms, nullptr, term_out);
}

int dlock_election_campaign_cancellable(dlock_election* election, const char* value, int64_t wait_ms,
                                        dlock_cancel* cancel, uint64_t* term_out) {
  return campaign(election, value, wait_ms, cancel, term_out);
}

int dlock_election_campaign_async(dlock_election* election, const char* value, int64_t wait_ms,
                                  dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(election, "election");
    dlock::c_api::require_callback(done);
    const std::string text = checked_value(value, "value");
    const dlock::AcquireRequest request = campaign_request(election, wait_ms, cancel);
    std::shared_ptr<dlock::ClientCore> core = election->lock.client->core();
    dlock::ReentrantLock leadership(*core, election->lock.ops);
    if (const std::optional<uint64_t> term =
            dlock::Election(*core, election->ops).current_term(election->owner, leadership)) {
      dlock::c_api::report_granted(*core, *term, done, ctx);  // leading already
      return DLOCK_OK;
    }
    election->ops->set_value(text);
    dlock::c_api::submit_acquire(*core, election->lock.ops, request, done, ctx);
    return DLOCK_OK;
  });
}

int dlock_election_resign(dlock_election* election) {
  return guarded([&] {
    require(election, "election");
    return with_ops(&election->lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.release(election->owner);
      return DLOCK_OK;
    });
  });
}

int dlock_election_proclaim(dlock_election* election, const char* value) {
  return guarded([&] {
    require(election, "election");
    const std::string text = checked_value(value, "value");
    return with_ops(&election->lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      dlock::Election(core, election->ops).proclaim(election->owner, text);
      return DLOCK_OK;
    });
  });
}

int dlock_election_leader(dlock_election* election, dlock_leader* out) {
  return guarded([&] {
    require(out, "out");
    std::memset(out, 0, sizeof *out);
    require(election, "election");
    return with_ops(&election->lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      const std::optional<dlock::Leader> leader = dlock::Election(core, election->ops).leader();
      if (!leader) return DLOCK_NOT_ACQUIRED;
      fill(*leader, out);
      return DLOCK_OK;
    });
  });
}

int dlock_election_is_leader(dlock_election* election, int* out) {
  return guarded([&] {
    require(out, "out");
    require(election, "election");
    return with_ops(&election->lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      const std::optional<dlock::Hold> hold = core.holds().find(election->lock.ops->hold_key(), election->owner);
      *out = hold && !hold->lost ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_election_term(dlock_election* election, uint64_t* out) {
  return guarded([&] {
    require(out, "out");
    require(election, "election");
    return with_ops(&election->lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      const std::optional<dlock::Hold> hold = core.holds().find(election->lock.ops->hold_key(), election->owner);
      if (!hold || hold->lost) {
        throw dlock::NotOwnerError("term: this candidate does not lead '" + election->ops->name() + "'");
      }
      *out = hold->grant.token;
      return DLOCK_OK;
    });
  });
}

int dlock_election_set_lost_callback(dlock_election* election, dlock_lost_fn fn, void* ctx) {
  return guarded([&] {
    require(election, "election");
    election->lock.client->core();  // DLOCK_E_CLOSED for a closed client
    dlock::LostCallback::Fn callback;
    if (fn != nullptr) {
      // Told the election's name, not its lock's key.
      callback = [fn, ctx, name = election->ops->name()](const std::string&, uint64_t, uint64_t term) {
        fn(name.c_str(), 0, term, ctx);
      };
    }
    election->lock.on_lost->set(std::move(callback));
    return DLOCK_OK;
  });
}

int dlock_election_observe(dlock_election* election, dlock_leader_fn fn, void* ctx) {
  return guarded([&] {
    require(election, "election");
    std::lock_guard<std::mutex> guard(election->observer_mutex);
    election->observer.reset();  // waits for a callback under way
    if (fn == nullptr) return DLOCK_OK;
    election->lock.client->core();  // DLOCK_E_CLOSED for a closed client
    election->observer = election->ops->follow([fn, ctx](const dlock::Leader& leader) {
      dlock_leader told;
      fill(leader, &told);
      fn(&told, ctx);
    });
    return DLOCK_OK;
  });
}

}  // extern "C"
