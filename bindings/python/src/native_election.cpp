#include "native_election.hpp"

#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "async_completion.hpp"
#include "dlock.h"
#include "dlock_callback.hpp"
#include "lost_callback.hpp"
#include "native_cancel.hpp"
#include "native_client.hpp"
#include "off_thread.hpp"
#include "status.hpp"
#include "without_gil.hpp"

namespace py = pybind11;

namespace dlock_python {
namespace {

// A leader's value as Python text: "replace", so that a value another client
// published, which need not be UTF-8, never fails here.
py::str value_text(const dlock_leader& leader) {
  PyObject* text = PyUnicode_DecodeUTF8(leader.value, static_cast<Py_ssize_t>(leader.value_len), "replace");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

// The Python callable behind an election's observer, called as
// function(value, term, since_ms) on the observer's own thread.
class ObserverCallback {
 public:
  explicit ObserverCallback(py::object function) : function_(std::move(function)) {}

  // A dlock_leader_fn; `self` is an ObserverCallback.
  static void call(const dlock_leader* leader, void* self) {
    if (!interpreter_running()) return;
    py::gil_scoped_acquire gil;
    const InDlockCallback in_callback;
    try {
      static_cast<ObserverCallback*>(self)->function_(value_text(*leader), leader->term, leader->since_ms);
    } catch (py::error_already_set& error) {
      // Nobody can catch an exception raised on the observer's thread.
      error.discard_as_unraisable("dlock election observer");
    }
  }

 private:
  py::object function_;
};

// What a freed election's callbacks were: they must outlive the handle, whose
// free waits for a call of theirs under way.
struct Callables {
  std::unique_ptr<LostCallback> on_lost;
  std::vector<std::unique_ptr<ObserverCallback>> observers;
};

// Frees the handle on a thread of its own (inside a dlock callback, where
// freeing would wait for this very call, or from dlock's async thread), then
// drops the callables under the GIL; without an interpreter they are left
// behind.
void free_off_thread(dlock_election* election, Callables* callables) {
  run_off_thread([election, callables] {
    dlock_election_free(election);
    if (!interpreter_running()) return;
    py::gil_scoped_acquire gil;
    delete callables;
  });
}

class NativeElection {
 public:
  // `client` is the Python object of a NativeClient, which the election keeps
  // alive (not open: closing the client still closes it). `on_lost`, if not
  // None, is called as on_lost(name, 0, term) when the leadership is lost.
  NativeElection(py::object client, const std::string& name, py::object on_lost) : client_(std::move(client)) {
    check_status(dlock_election_new(client_.cast<NativeClient&>().get(), c_string(name, "name"), &election_));
    name_ = name;
    if (on_lost.is_none()) return;
    callables_->on_lost = std::make_unique<LostCallback>(std::move(on_lost));
    check_status(without_gil([&] {
      return dlock_election_set_lost_callback(election_, &LostCallback::call, callables_->on_lost.get());
    }));
  }
  ~NativeElection() { close(); }
  NativeElection(const NativeElection&) = delete;
  NativeElection& operator=(const NativeElection&) = delete;

  const std::string& name() const { return name_; }

  // The term, or None when the wait ran out.
  py::object campaign(const std::optional<std::string>& value, int64_t wait_ms, NativeCancel* cancel) {
    const char* text = value ? c_string(*value, "value") : nullptr;
    uint64_t term = 0;
    const int status = using_handle([&](dlock_election* election) {
      return dlock_election_campaign_cancellable(election, text, wait_ms, native_token(cancel), &term);
    });
    if (status == DLOCK_NOT_ACQUIRED) return py::none();
    check_status(status);
    return py::int_(term);
  }

  // As campaign(), without blocking: on_done(status, term, message, expiry)
  // on the client's async thread.
  void campaign_async(const std::optional<std::string>& value, int64_t wait_ms, NativeCancel* cancel,
                      py::object on_done) {
    // dlock copies the value before it returns.
    const char* text = value ? c_string(*value, "value") : nullptr;
    dlock_election* election = enter();
    try {
      start_async(
          [&](AsyncCompletion* completion) {
            return dlock_election_campaign_async(election, text, wait_ms, native_token(cancel),
                                                 &AsyncCompletion::done, completion);
          },
          py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done),
          [this](int) { leave(); });
    } catch (...) {
      leave();  // not started: `done`, and with it the accounting, never comes
      throw;
    }
  }

  void resign() {
    check_status(using_handle([](dlock_election* election) { return dlock_election_resign(election); }));
  }

  void proclaim(const std::string& value) {
    const char* text = c_string(value, "value");
    check_status(
        using_handle([text](dlock_election* election) { return dlock_election_proclaim(election, text); }));
  }

  // (value, term, since_ms), or None when nobody leads.
  py::object leader() {
    dlock_leader leader{};
    const int status =
        using_handle([&leader](dlock_election* election) { return dlock_election_leader(election, &leader); });
    if (status == DLOCK_NOT_ACQUIRED) return py::none();
    check_status(status);
    return py::make_tuple(value_text(leader), leader.term, leader.since_ms);
  }

  bool is_leader() {
    int leading = 0;
    check_status(
        using_handle([&leading](dlock_election* election) { return dlock_election_is_leader(election, &leading); }));
    return leading != 0;
  }

  uint64_t term() {
    uint64_t term = 0;
    check_status(using_handle([&term](dlock_election* election) { return dlock_election_term(election, &term); }));
    return term;
  }

  // Starts (or, `function` None, stops) following the leaders: function(value,
  // term, since_ms) on the observer's thread. A replaced callable is kept until
  // the handle is freed.
  void observe(py::object function) {
    if (function.is_none()) {
      check_status(using_handle([](dlock_election* election) {
        return dlock_election_observe(election, nullptr, nullptr);
      }));
      return;
    }
    auto observer = std::make_unique<ObserverCallback>(std::move(function));
    ObserverCallback* target = observer.get();
    callables_->observers.push_back(std::move(observer));
    check_status(using_handle([target](dlock_election* election) {
      return dlock_election_observe(election, &ObserverCallback::call, target);
    }));
  }

  // Stops the observer, resigns if leading, frees the handle. Idempotent.
  // Calls under way on other threads (a campaign waiting) keep the handle
  // until the last of them returns; calls after raise the closed error.
  void close() {
    dlock_election* election = nullptr;
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      if (closing_) return;
      closing_ = true;
      if (in_flight_ > 0) return;  // leave() frees it
      std::swap(election, election_);
    }
    if (election == nullptr) return;
    if (InDlockCallback::on_this_thread()) {
      // Perhaps its own lost callback or observer: freeing waits for that call.
      free_off_thread(election, callables_.release());
      return;
    }
    py::gil_scoped_release nogil;
    dlock_election_free(election);
  }

  bool closed() {
    const std::lock_guard<std::mutex> guard(mutex_);
    return closing_;
  }

 private:
  // Runs call(handle) without the GIL, the handle kept from close() meanwhile.
  template <typename Call>
  int using_handle(Call&& call) {
    dlock_election* election = enter();
    const int status = without_gil([&] { return call(election); });
    leave();
    return status;
  }

  dlock_election* enter() {
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      if (!closing_) {
        ++in_flight_;
        return election_;
      }
    }
    raise_status(DLOCK_E_CLOSED, "the election is closed");
  }

  // May run without the GIL (an asynchronous campaign's end, on dlock's async thread).
  void leave() {
    dlock_election* election = nullptr;
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      if (--in_flight_ > 0 || !closing_) return;
      std::swap(election, election_);
    }
    if (election != nullptr) free_off_thread(election, callables_.release());
  }

  // An election keeps its client object alive, as a lock does.
  py::object client_;
  dlock_election* election_ = nullptr;
  std::string name_;
  std::unique_ptr<Callables> callables_ = std::make_unique<Callables>();
  std::mutex mutex_;
  int in_flight_ = 0;
  bool closing_ = false;
};

}  // namespace

void bind_native_election(py::module_& module) {
  module.attr("ELECTION_VALUE_MAX") = DLOCK_ELECTION_VALUE_MAX;
  py::class_<NativeElection>(module, "Election")
      .def(py::init<py::object, const std::string&, py::object>(), py::arg("client"), py::arg("name"),
           py::arg("on_lost") = py::none())
      .def_property_readonly("name", &NativeElection::name)
      .def("campaign", &NativeElection::campaign, py::arg("value"), py::arg("wait_ms"),
           py::arg("cancel") = nullptr)
      .def("campaign_async", &NativeElection::campaign_async, py::arg("value"), py::arg("wait_ms"),
           py::arg("cancel"), py::arg("on_done"))
      .def("resign", &NativeElection::resign)
      .def("proclaim", &NativeElection::proclaim, py::arg("value"))
      .def("leader", &NativeElection::leader)
      .def("is_leader", &NativeElection::is_leader)
      .def("term", &NativeElection::term)
      .def("observe", &NativeElection::observe, py::arg("function"))
      .def("close", &NativeElection::close)
      .def_property_readonly("closed", &NativeElection::closed);
}

}  // namespace dlock_python
