#include "native_client.hpp"

#include <pybind11/stl.h>

#include "dlock_callback.hpp"
#include "native_lock.hpp"
#include "off_thread.hpp"
#include "status.hpp"

namespace py = pybind11;

namespace dlock_python {

NativeClient::NativeClient(const std::string& url, const NativeClientOptions& options) {
  dlock_client_options native_options;
  dlock_client_options_init(&native_options);
  if (options.connect_timeout_ms) native_options.connect_timeout_ms = *options.connect_timeout_ms;
  if (options.command_timeout_ms) native_options.command_timeout_ms = *options.command_timeout_ms;
  if (options.watchdog_timeout_ms) {
    native_options.watchdog_timeout_ms = *options.watchdog_timeout_ms;
  }
  if (options.pool_size) native_options.pool_size = *options.pool_size;
  if (options.sync_replicas) native_options.sync_replicas = *options.sync_replicas;
  if (options.sync_timeout_ms) native_options.sync_timeout_ms = *options.sync_timeout_ms;
  auto text = [](const std::optional<std::string>& value, const char* what) {
    return value ? c_string(*value, what) : nullptr;
  };
  native_options.tls_ca = text(options.tls_ca, "tls_ca");
  native_options.tls_cert = text(options.tls_cert, "tls_cert");
  native_options.tls_key = text(options.tls_key, "tls_key");
  native_options.tls_sni = text(options.tls_sni, "tls_sni");
  native_options.tls_verify = text(options.tls_verify, "tls_verify");
  const char* native_url = c_string(url, "url");
  int status;
  {
    py::gil_scoped_release nogil;
    status = dlock_client_open(native_url, &native_options, &client_);
  }
  check_status(status);
  backend_ = dlock_client_backend(client_);
}

NativeClient::~NativeClient() {
  if (client_ == nullptr) return;
  close_client_off_thread(client_);
}

void NativeClient::close() {
  dlock_client* client = client_;
  client_ = nullptr;
  if (client == nullptr) return;
  // Closing joins the watchdog and async threads, one of which is this one
  // inside a callback.
  if (InDlockCallback::on_this_thread()) {
    close_client_off_thread(client);
    return;
  }
  py::gil_scoped_release nogil;
  dlock_client_close(client);
}

dlock_client* NativeClient::get() const {
  if (client_ == nullptr) raise_status(DLOCK_E_CLOSED, "the client is closed");
  return client_;
}

void bind_native_client(py::module_& module) {
  py::class_<NativeClient>(module, "Client")
      .def(py::init([](const py::str& url, std::optional<int64_t> connect_timeout_ms,
                       std::optional<int64_t> command_timeout_ms, std::optional<int64_t> watchdog_timeout_ms,
                       std::optional<int32_t> pool_size, std::optional<std::string> tls_ca,
                       std::optional<std::string> tls_cert, std::optional<std::string> tls_key,
                       std::optional<std::string> tls_sni, std::optional<std::string> tls_verify,
                       std::optional<int32_t> sync_replicas, std::optional<int64_t> sync_timeout_ms) {
             return std::make_unique<NativeClient>(
                 std::string(url),
                 NativeClientOptions{connect_timeout_ms, command_timeout_ms, watchdog_timeout_ms, pool_size,
                                     std::move(tls_ca), std::move(tls_cert), std::move(tls_key),
                                     std::move(tls_sni), std::move(tls_verify), sync_replicas,
                                     sync_timeout_ms});
           }),
           py::arg("url"), py::kw_only(), py::arg("connect_timeout_ms") = py::none(),
           py::arg("command_timeout_ms") = py::none(), py::arg("watchdog_timeout_ms") = py::none(),
           py::arg("pool_size") = py::none(), py::arg("tls_ca") = py::none(),
           py::arg("tls_cert") = py::none(), py::arg("tls_key") = py::none(), py::arg("tls_sni") = py::none(),
           py::arg("tls_verify") = py::none(), py::arg("sync_replicas") = py::none(),
           py::arg("sync_timeout_ms") = py::none())
      .def("close", &NativeClient::close)
      .def_property_readonly("closed", &NativeClient::closed)
      .def_property_readonly("backend", &NativeClient::backend)
      // Names are str only: bytes need not be UTF-8, and a name is handed back
      // to Python as str (Lock.name, lost-lock callbacks).
      .def(
          "lock",
          [](NativeClient& client, const py::str& name, py::object on_lost, const std::string& kind) {
            py::object self = py::cast(&client, py::return_value_policy::reference);
            return std::make_unique<NativeLock>(std::move(self), name, std::move(on_lost), kind);
          },
          py::arg("name"), py::arg("on_lost") = py::none(), py::arg("kind") = "lock");
}

}  // namespace dlock_python
