#include "native_stats.hpp"

#include "dlock.h"
#include "native_client.hpp"
#include "status.hpp"

namespace py = pybind11;

namespace dlock_python {

void bind_native_stats(py::module_& module) {
  // No round trip: the counters are in this process's memory, read under the GIL.
  module.def(
      "client_stats",
      [](const NativeClient& client) {
        dlock_client_stats stats{};
        stats.size = sizeof stats;
        check_status(dlock_client_stats_get(client.get(), &stats));
        py::dict fields;
        fields["grants"] = stats.grants;
        fields["reentries"] = stats.reentries;
        fields["waits"] = stats.waits;
        fields["handoffs"] = stats.handoffs;
        fields["renewals"] = stats.renewals;
        fields["renewal_round_trips"] = stats.renewal_round_trips;
        fields["locks_lost"] = stats.locks_lost;
        fields["expiries"] = stats.expiries;
        fields["reconnects"] = stats.reconnects;
        fields["transient_retries"] = stats.transient_retries;
        fields["wait_p50_us"] = stats.wait_p50_us;
        fields["wait_p99_us"] = stats.wait_p99_us;
        fields["wait_max_us"] = stats.wait_max_us;
        fields["failovers"] = stats.failovers;
        return fields;
      },
      py::arg("client"));
}

}  // namespace dlock_python
