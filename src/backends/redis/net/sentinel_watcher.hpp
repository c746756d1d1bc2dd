// Sentinel: one thread with one connection to one sentinel, subscribed to
// +switch-master (and to the failover's replica promotion, which comes
// seconds earlier), that tells the MasterLocator the moment its master moves.
// When that sentinel goes away it moves to the next one, and asks it where
// the master is first (a switch may have happened meanwhile).
#pragma once

#include <memory>
#include <mutex>
#include <thread>

#include "backends/redis/net/master_locator.hpp"
#include "common/wake_fd.hpp"

namespace dlock {

class SentinelWatcher {
 public:
  SentinelWatcher(std::shared_ptr<MasterLocator> locator, int64_t command_timeout_ms);
  ~SentinelWatcher();
  SentinelWatcher(const SentinelWatcher&) = delete;
  SentinelWatcher& operator=(const SentinelWatcher&) = delete;

  void stop();

 private:
  void run();
  // Watches through sentinel `index` until its connection fails or stop().
  void watch(std::size_t index);
  // Sleeps for `delay` or until stop(); false when stopping.
  bool pause(std::chrono::milliseconds delay);
  void handle(const ReplyView& reply, std::size_t index);
  // Asks sentinel `index` (on a connection of its own) and tells the locator.
  void ask_where_the_master_is(std::size_t index, const std::string& how);

  const std::shared_ptr<MasterLocator> locator_;
  const std::chrono::milliseconds command_timeout_;
  std::mutex mutex_;
  bool stopping_ = false;
  WakeFd wake_;
  std::thread thread_;
};

}  // namespace dlock
