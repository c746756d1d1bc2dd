#include "observed_leaders.hpp"

#include "dlock_handles.hpp"

namespace dlock_test {

std::optional<dlock_leader> leader_of(dlock_election* election) {
  dlock_leader leader;
  const int status = dlock_election_leader(election, &leader);
  if (status == DLOCK_NOT_ACQUIRED) return std::nullopt;
  require_ok(status, "dlock_election_leader");
  return leader;
}

std::string leader_value(const dlock_leader& leader) { return std::string(leader.value, leader.value_len); }

void ObservedLeaders::on_leader(const dlock_leader* leader, void* ctx) {
  auto* self = static_cast<ObservedLeaders*>(ctx);
  std::lock_guard<std::mutex> guard(self->mutex_);
  self->seen_.emplace_back(leader->term, leader_value(*leader));
}

std::vector<std::pair<uint64_t, std::string>> ObservedLeaders::seen() {
  std::lock_guard<std::mutex> guard(mutex_);
  return seen_;
}

}  // namespace dlock_test
