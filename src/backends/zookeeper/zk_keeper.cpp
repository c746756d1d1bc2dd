#include "backends/zookeeper/zk_keeper.hpp"

#include <string>
#include <utility>

#include "backends/zookeeper/zk_nodes.hpp"
#include "common/error.hpp"

namespace dlock {

void ZkKeeper::renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point /*deadline*/,
                     const ReportSink& sink) {
  if (due.empty()) return;
  std::vector<zk::HeldNode> nodes;
  nodes.reserve(due.size());
  for (const Hold& hold : due) nodes.push_back({hold.grant.locator, hold.grant.token});
  std::vector<bool> held;
  try {
    const std::shared_ptr<zk::ZkSession> session = session_();
    held = zk::still_held(*session, nodes);
    // Every answer came on this session: it lived when they were sent.
    session->confirm_contact(sent_at);
  } catch (const Error& error) {
    // Unanswered: the holds stay valid until their deadline, as on Redis.
    sink(Report{sent_at, {}, due, false, error.what()});
    return;
  }
  Report report{sent_at, {}, {}, true, std::nullopt};
  report.answered.reserve(due.size());
  for (std::size_t i = 0; i < due.size(); ++i) report.answered.push_back({due[i], held[i]});
  sink(std::move(report));
}

int64_t ZkKeeper::settle(const PendingRequest& request, Clock::time_point deadline) {
  return request.settle(deadline);
}

}  // namespace dlock
