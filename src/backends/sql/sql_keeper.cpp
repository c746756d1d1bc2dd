#include "backends/sql/sql_keeper.hpp"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "common/error.hpp"
#include "core/held_resource.hpp"

namespace dlock {

SqlRows rows_of_hold(const Hold& hold) {
  return static_cast<const SqlHeld&>(*hold.resource).rows();
}

std::string client_of(const std::string& owner_field) {
  return owner_field.substr(0, owner_field.rfind(':'));
}

void SqlKeeper::renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point /*deadline*/,
                      const ReportSink& sink) {
  if (due.empty()) return;
  // One statement per (table, client, lease): a client's watchdog holds share the last two.
  std::map<std::tuple<SqlRows, std::string, int64_t>, std::vector<sql::LeaseHold>> groups;
  for (const Hold& hold : due) {
    groups[{rows_of_hold(hold), client_of(hold.grant.owner_field), hold.lease_ms}].push_back(
        {hold.resource->name(), hold.grant.token, hold.grant.locator});
  }
  std::set<std::pair<std::string, uint64_t>> renewed;  // (name, token): tokens are unique across tables
  try {
    sql::SqlPool::Lease connection = pool_.take();
    for (const auto& [key, holds] : groups) {
      const auto& [rows, client, lease_ms] = key;
      const std::vector<uint64_t> tokens =
          rows_of_(rows).renew(*connection, client, holds, std::chrono::milliseconds(lease_ms));
      const std::set<uint64_t> kept(tokens.begin(), tokens.end());
      for (const sql::LeaseHold& hold : holds) {
        if (kept.count(hold.token) != 0) renewed.emplace(hold.name, hold.token);
      }
    }
  } catch (const Error& error) {
    // Unanswered: the holds stay valid until their deadline, as on Redis.
    sink(Report{sent_at, {}, due, false, error.what()});
    return;
  }
  Report report{sent_at, {}, {}, true, std::nullopt};
  report.answered.reserve(due.size());
  for (const Hold& hold : due) {
    report.answered.push_back({hold, renewed.count({hold.resource->name(), hold.grant.token}) != 0});
  }
  sink(std::move(report));
}

int64_t SqlKeeper::settle(const PendingRequest& request, Clock::time_point deadline) {
  return request.settle(deadline);
}

}  // namespace dlock
