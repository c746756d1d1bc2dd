#include "native_lock_group.hpp"

#include <thread>
#include <vector>

#include "async_completion.hpp"
#include "dlock_callback.hpp"
#include "native_cancel.hpp"
#include "native_lock.hpp"
#include "status.hpp"
#include "without_gil.hpp"

namespace py = pybind11;

namespace dlock_python {

NativeLockGroup::NativeLockGroup(const py::list& locks, bool majority, py::object on_lost) : locks_(locks) {
  std::vector<dlock_lock*> members;
  for (const py::handle& lock : locks_) members.push_back(lock.cast<NativeLock&>().get());
  check_status(majority ? dlock_redlock_new(members.data(), members.size(), &red_)
                        : dlock_multilock_new(members.data(), members.size(), &multi_));
  if (on_lost.is_none()) return;
  on_lost_ = std::make_unique<LostCallback>(std::move(on_lost));
  check_status(without_gil([&] {
    return red_ != nullptr ? dlock_redlock_set_lost_callback(red_, &LostCallback::call, on_lost_.get())
                           : dlock_multilock_set_lost_callback(multi_, &LostCallback::call, on_lost_.get());
  }));
}

NativeLockGroup::~NativeLockGroup() {
  if (InDlockCallback::on_this_thread()) {
    // Dropped inside a callback from dlock, perhaps its own lost callback:
    // freeing waits for that call to return, so it is done on a thread of its
    // own, and the callable stays alive for good rather than die mid-call.
    std::thread([multi = multi_, red = red_] {
      dlock_multilock_free(multi);
      dlock_redlock_free(red);
    }).detach();
    static_cast<void>(on_lost_.release());
    return;
  }
  // Freeing releases the holds still taken through the group (a round trip
  // each) and waits for a lost callback in progress, which needs the GIL.
  py::gil_scoped_release nogil;
  dlock_multilock_free(multi_);
  dlock_redlock_free(red_);
}

py::object NativeLockGroup::acquire(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel) {
  dlock_cancel* native_cancel = native_token(cancel);
  int64_t validity = 0;
  const int status = without_gil([&] {
    return red_ != nullptr
               ? dlock_redlock_acquire_owner(red_, owner, wait_ms, lease_ms, native_cancel, &validity)
               : dlock_multilock_acquire_owner(multi_, owner, wait_ms, lease_ms, native_cancel);
  });
  if (status == DLOCK_NOT_ACQUIRED) return py::none();
  check_status(status);
  return py::int_(validity);
}

void NativeLockGroup::acquire_async(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel,
                                    py::object on_done) {
  start_async(
      [&](AsyncCompletion* completion) {
        return red_ != nullptr ? dlock_redlock_acquire_async(red_, owner, wait_ms, lease_ms, native_token(cancel),
                                                             &AsyncCompletion::done, completion)
                               : dlock_multilock_acquire_async(multi_, owner, wait_ms, lease_ms,
                                                               native_token(cancel), &AsyncCompletion::done,
                                                               completion);
      },
      py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done));
}

void NativeLockGroup::release(uint64_t owner) {
  check_status(without_gil([&] {
    return red_ != nullptr ? dlock_redlock_release_owner(red_, owner)
                           : dlock_multilock_release_owner(multi_, owner);
  }));
}

int NativeLockGroup::hold_count(uint64_t owner) {
  int count = 0;
  check_status(red_ != nullptr ? dlock_redlock_hold_count_owner(red_, owner, &count)
                               : dlock_multilock_hold_count_owner(multi_, owner, &count));
  return count;
}

bool NativeLockGroup::is_held(uint64_t owner) {
  int held = 0;
  check_status(red_ != nullptr ? dlock_redlock_is_held_owner(red_, owner, &held)
                               : dlock_multilock_is_held_owner(multi_, owner, &held));
  return held != 0;
}

int64_t NativeLockGroup::validity_ms(uint64_t owner) {
  if (red_ == nullptr) raise_status(DLOCK_E_UNSUPPORTED, "validity: a MultiLock has no validity of its own");
  int64_t validity = 0;
  check_status(dlock_redlock_validity_owner(red_, owner, &validity));
  return validity;
}

void bind_native_lock_group(py::module_& module) {
  py::class_<NativeLockGroup>(module, "LockGroup")
      .def(py::init<const py::list&, bool, py::object>(), py::arg("locks"), py::arg("majority"),
           py::arg("on_lost"))
      .def("acquire", &NativeLockGroup::acquire, py::arg("owner"), py::arg("wait_ms"), py::arg("lease_ms"),
           py::arg("cancel") = nullptr)
      .def("acquire_async", &NativeLockGroup::acquire_async, py::arg("owner"), py::arg("wait_ms"),
           py::arg("lease_ms"), py::arg("cancel"), py::arg("on_done"))
      .def("release", &NativeLockGroup::release, py::arg("owner"))
      .def("hold_count", &NativeLockGroup::hold_count, py::arg("owner"))
      .def("is_held", &NativeLockGroup::is_held, py::arg("owner"))
      .def("validity_ms", &NativeLockGroup::validity_ms, py::arg("owner"));
}

}  // namespace dlock_python
