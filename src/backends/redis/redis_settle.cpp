#include "backends/redis/redis_settle.hpp"

#include "backends/redis/redis_session.hpp"

namespace dlock {

Settle redis_settle(ClientCore& core, std::string name, std::function<int64_t(Connection&)> call) {
  return
      [&core, name = std::move(name), call = std::move(call)](std::optional<Clock::time_point> once_before) {
        return redis_session(core).run(name, call, once_before);
      };
}

}  // namespace dlock
