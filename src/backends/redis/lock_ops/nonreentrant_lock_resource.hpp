// The non-reentrant lock on Redis: the reentrant lock's hash, keys and
// scripts, its acquire told (acquire.lua's ARGV[5]) to refuse the owner's
// field found under another request id, so threads sharing one owner id never
// hold it together. The client keeps an owner that holds it from asking at
// all (AcquireProcess).
#pragma once

#include "backends/redis/lock_ops/lock_resource.hpp"

namespace dlock {

class NonReentrantLockResource final : public LockResource {
 public:
  using LockResource::LockResource;

 protected:
  Reply run_acquire(Connection& connection, const Argv& keys, const Argv& args) const override {
    Argv refusing_reentry = args;
    refusing_reentry.emplace_back("1");
    return LockResource::run_acquire(connection, keys, refusing_reentry);
  }
};

}  // namespace dlock
