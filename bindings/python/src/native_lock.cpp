#include "native_lock.hpp"

#include <memory>

#include "async_completion.hpp"
#include "dlock_callback.hpp"
#include "native_cancel.hpp"
#include "native_client.hpp"
#include "off_thread.hpp"
#include "status.hpp"
#include "without_gil.hpp"

namespace py = pybind11;

namespace dlock_python {

NativeLock::NativeLock(py::object client, const py::str& name, py::object on_lost, const std::string& kind)
    : client_(std::move(client)) {
  const std::string text = name;
  const auto make = kind == "read"    ? &dlock_rwlock_read_lock
                    : kind == "write" ? &dlock_rwlock_write_lock
                    : kind == "fair"  ? &dlock_fair_lock_new
                    : kind == "nonreentrant" ? &dlock_lock_new_nonreentrant
                                      : &dlock_lock_new;
  check_status(make(client_.cast<NativeClient&>().get(), c_string(text, "name"), &lock_));
  if (on_lost.is_none()) return;
  on_lost_ = std::make_unique<LostCallback>(std::move(on_lost));
  check_status(
      without_gil([&] { return dlock_lock_set_lost_callback(lock_, &LostCallback::call, on_lost_.get()); }));
}

NativeLock::~NativeLock() {
  if (InDlockCallback::on_this_thread()) {
    // Dropped inside a callback from dlock, perhaps its own lost callback:
    // dlock clears the callback when it frees the handle, waiting for the call
    // in progress, which may be this one, and an asynchronous call's handle must
    // outlive its callback. The callable stays alive for good rather than be
    // destroyed mid-call.
    free_lock_off_thread(lock_);
    static_cast<void>(on_lost_.release());
    return;
  }
  const bool holds_nothing = holds_.load() == 0;
  py::gil_scoped_release nogil;
  if (holds_nothing) {
    dlock_lock_free(lock_);
  } else {
    dlock_lock_set_lost_callback(lock_, nullptr, nullptr);
    free_lock_off_thread(lock_);
  }
}

py::object NativeLock::acquire(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel) {
  return token_of([&](uint64_t* token) {
    return dlock_lock_acquire_owner(lock_, owner, wait_ms, lease_ms, native_token(cancel), token);
  });
}

py::object NativeLock::try_before_wait(uint64_t owner, int64_t lease_ms) {
  return token_of([&](uint64_t* token) { return dlock_lock_try_before_wait_owner(lock_, owner, lease_ms, token); });
}

template <typename Acquire>
py::object NativeLock::token_of(Acquire&& acquire) {
  uint64_t token = 0;
  const int status = without_gil([&] { return acquire(&token); });
  count_acquire(status);
  if (status == DLOCK_NOT_ACQUIRED) return py::none();
  check_status(status);
  return py::int_(token);
}

void NativeLock::release(uint64_t owner) {
  const int status = without_gil([&] { return dlock_lock_release_owner(lock_, owner); });
  count_release(status);
  check_status(status);
}

void NativeLock::count_acquire(int status) {
  if (status == DLOCK_OK) holds_.fetch_add(1);
}

void NativeLock::count_release(int status) {
  if (status == DLOCK_OK || status == DLOCK_E_LOST) holds_.fetch_sub(1);
}

void NativeLock::acquire_async(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel,
                               py::object on_done) {
  start_async(
      [&](AsyncCompletion* completion) {
        return dlock_lock_acquire_async(lock_, owner, wait_ms, lease_ms, native_token(cancel),
                                        &AsyncCompletion::done, completion);
      },
      py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done),
      [this](int status) { count_acquire(status); });
}

void NativeLock::release_async(uint64_t owner, py::object on_done) {
  start_async(
      [&](AsyncCompletion* completion) {
        return dlock_lock_release_async(lock_, owner, &AsyncCompletion::done, completion);
      },
      py::cast(this, py::return_value_policy::reference), nullptr, std::move(on_done),
      [this](int status) { count_release(status); });
}

void NativeLock::extend(uint64_t owner, int64_t lease_ms) {
  check_status(without_gil([&] { return dlock_lock_extend_owner(lock_, owner, lease_ms); }));
}

void NativeLock::release_keeping(uint64_t owner, int64_t keep_ms) {
  const int status = without_gil([&] { return dlock_lock_release_keeping_owner(lock_, owner, keep_ms); });
  count_release(status);
  check_status(status);
}

py::tuple NativeLock::inspect() {
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* holders = nullptr;
  check_status(without_gil([&] { return dlock_lock_inspect(lock_, &info, &holders); }));
  const std::unique_ptr<dlock_lock_holders, void (*)(dlock_lock_holders*)> owned(holders,
                                                                                 dlock_lock_holders_free);
  py::list listed;
  for (size_t i = 0; i < info.holder_count; ++i) {
    const char* id = nullptr;
    size_t length = 0;
    int64_t count = 0;
    check_status(dlock_lock_holders_get(holders, i, &id, &length, &count));
    listed.append(py::make_tuple(py::bytes(id, length), count));
  }
  py::object token = info.has_last_token ? py::object(py::int_(info.last_token)) : py::none();
  return py::make_tuple(info.ttl_ms, token, listed);
}

py::object NativeLock::count_attempt(const std::string& period_id, int64_t expire_in_ms,
                                     int64_t max_attempts) {
  const char* period = c_string(period_id, "period_id");
  int64_t attempt = 0;
  const int status = without_gil(
      [&] { return dlock_lock_count_attempt(lock_, period, expire_in_ms, max_attempts, &attempt); });
  if (status == DLOCK_NOT_ACQUIRED) return py::none();
  check_status(status);
  return py::int_(attempt);
}

bool NativeLock::force_release() {
  int released = 0;
  check_status(without_gil([&] { return dlock_lock_force_release_checked(lock_, &released); }));
  return released != 0;
}

bool NativeLock::is_locked() {
  int locked = 0;
  check_status(without_gil([&] { return dlock_lock_is_locked(lock_, &locked); }));
  return locked != 0;
}

bool NativeLock::is_held(uint64_t owner) {
  int held = 0;
  check_status(without_gil([&] { return dlock_lock_is_held_owner(lock_, owner, &held); }));
  return held != 0;
}

int NativeLock::hold_count(uint64_t owner) {
  int count = 0;
  check_status(without_gil([&] { return dlock_lock_hold_count_owner(lock_, owner, &count); }));
  return count;
}

uint64_t NativeLock::fencing_token(uint64_t owner) {
  uint64_t token = 0;
  check_status(without_gil([&] { return dlock_lock_fencing_token_owner(lock_, owner, &token); }));
  return token;
}

void NativeLock::set_writer_preference(bool enabled) {
  check_status(dlock_rwlock_set_writer_preference(lock_, enabled ? 1 : 0));
}

int64_t NativeLock::ttl_ms() {
  int64_t ttl = 0;
  check_status(without_gil([&] { return dlock_lock_ttl(lock_, &ttl); }));
  return ttl;
}

void bind_native_lock(py::module_& module) {
  py::class_<NativeLock>(module, "Lock")
      .def_property_readonly("name", &NativeLock::name)
      .def("acquire", &NativeLock::acquire, py::arg("owner"), py::arg("wait_ms"), py::arg("lease_ms"),
           py::arg("cancel") = nullptr)
      .def("try_before_wait", &NativeLock::try_before_wait, py::arg("owner"), py::arg("lease_ms"))
      .def("release", &NativeLock::release, py::arg("owner"))
      .def("acquire_async", &NativeLock::acquire_async, py::arg("owner"), py::arg("wait_ms"),
           py::arg("lease_ms"), py::arg("cancel"), py::arg("on_done"))
      .def("release_async", &NativeLock::release_async, py::arg("owner"), py::arg("on_done"))
      .def("extend", &NativeLock::extend, py::arg("owner"), py::arg("lease_ms"))
      .def("release_keeping", &NativeLock::release_keeping, py::arg("owner"), py::arg("keep_ms"))
      .def("inspect", &NativeLock::inspect)
      .def("count_attempt", &NativeLock::count_attempt, py::arg("period_id"), py::arg("expire_in_ms"),
           py::arg("max_attempts"))
      .def("force_release", &NativeLock::force_release)
      .def("is_locked", &NativeLock::is_locked)
      .def("is_held", &NativeLock::is_held, py::arg("owner"))
      .def("hold_count", &NativeLock::hold_count, py::arg("owner"))
      .def("fencing_token", &NativeLock::fencing_token, py::arg("owner"))
      .def("ttl_ms", &NativeLock::ttl_ms)
      .def("set_writer_preference", &NativeLock::set_writer_preference, py::arg("enabled"))
      .def_property_readonly("open_holds", &NativeLock::open_holds);
}

}  // namespace dlock_python
