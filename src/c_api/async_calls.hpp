// What every asynchronous entry point shares: the callback's check, a wait's
// outcome as a status (through the status funnel, so dlock_last_error() on
// the runner's thread has its text), and the call of a dlock_done_fn.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>

#include "c_api/guarded.hpp"
#include "core/wait_process.hpp"
#include "dlock.h"

namespace dlock::c_api {

template <typename Callback>
void require_callback(Callback done) {
  if (done == nullptr) throw InvalidArgument("done: must not be NULL");
}

// DLOCK_OK granted, DLOCK_NOT_ACQUIRED ran out, else the error's status.
inline int async_status(bool granted, const std::exception_ptr& error) {
  return guarded([&] {
    if (error) std::rethrow_exception(error);
    return granted ? DLOCK_OK : DLOCK_NOT_ACQUIRED;
  });
}

// Tells the caller: the status, the token, and the error's text.
inline void report(dlock_done_fn done, void* ctx, int status, uint64_t token) {
  done(status, token, status < 0 ? dlock_last_error() : "", ctx);
}

// Runs `process` on `runner`; `done` gets its status and token 0.
inline void submit_reporting(AsyncRunner& runner, std::shared_ptr<WaitProcess> process, dlock_done_fn done,
                             void* ctx) {
  submit_wait(runner, std::move(process), [done, ctx](bool granted, const std::exception_ptr& error) {
    report(done, ctx, async_status(granted, error), 0);
  });
}

}  // namespace dlock::c_api
