// dlock_client as a Python object. close() is explicit and idempotent; a
// client dropped open is closed off-thread, since closing releases its holds.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

#include "dlock.h"

namespace dlock_python {

struct NativeClientOptions {
  std::optional<int64_t> connect_timeout_ms;
  std::optional<int64_t> command_timeout_ms;
  std::optional<int64_t> watchdog_timeout_ms;
  std::optional<int32_t> pool_size;
  // rediss:// settings (see dlock_client_options); kept here while the client opens.
  std::optional<std::string> tls_ca;
  std::optional<std::string> tls_cert;
  std::optional<std::string> tls_key;
  std::optional<std::string> tls_sni;
  std::optional<std::string> tls_verify;
  // Replica sync (see dlock_client_options).
  std::optional<int32_t> sync_replicas;
  std::optional<int64_t> sync_timeout_ms;
};

class NativeClient {
 public:
  NativeClient(const std::string& url, const NativeClientOptions& options);
  ~NativeClient();
  NativeClient(const NativeClient&) = delete;
  NativeClient& operator=(const NativeClient&) = delete;

  void close();
  bool closed() const { return client_ == nullptr; }
  // dlock_client_backend(), kept from the open so that it outlives close().
  const std::string& backend() const { return backend_; }
  // The open handle; raises the DLOCK_E_CLOSED error once closed. The GIL
  // must be held: close() clears the handle under it before closing.
  dlock_client* get() const;

 private:
  dlock_client* client_ = nullptr;
  std::string backend_;
};

void bind_native_client(pybind11::module_& module);

}  // namespace dlock_python
