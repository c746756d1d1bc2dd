#include "backends/redis/redis_settle.hpp"

namespace dlock {

Settle redis_settle(ClientCore& core, std::string name, std::function<int64_t(Connection&)> call) {
  return
      [&core, name = std::move(name), call = std::move(call)](std::optional<Clock::time_point> once_before) {
        if (!once_before) return core.execute(name, call);
        ConnectionPool::Lease connection = core.router().acquire(name, *once_before);
        const TimeLimit limit(*connection, *once_before,
                              std::chrono::milliseconds(core.config().command_timeout_ms));
        return call(*connection);
      };
}

}  // namespace dlock
