// The leased-permit semaphore on Redis (core/permit_semaphore_ops.hpp):
// PermitSemaphore, Redisson's RPermitExpirableSemaphore layout, on the core
// of each call.
#pragma once

#include <memory>
#include <string>

#include "core/permit_semaphore_ops.hpp"
#include "primitives/permit_semaphore/permit_semaphore.hpp"

namespace dlock {

class RedisPermitSemaphoreOps final : public PermitSemaphoreOps {
 public:
  // Throws InvalidArgument for a bad name.
  explicit RedisPermitSemaphoreOps(const std::string& name)
      : resource_(std::make_shared<const PermitResource>(name)) {}

  Wait acquire_wait(ClientCore& core, const PermitRequest& request) override {
    return PermitSemaphore(core, resource_).acquire_wait(request);
  }
  void release(ClientCore& core, std::string_view id) override { PermitSemaphore(core, resource_).release(id); }
  bool try_set_permits(ClientCore& core, int permits) override {
    return PermitSemaphore(core, resource_).try_set_permits(permits);
  }
  int64_t available_permits(ClientCore& core) override {
    return PermitSemaphore(core, resource_).available_permits();
  }

 private:
  const std::shared_ptr<const PermitResource> resource_;
};

}  // namespace dlock
