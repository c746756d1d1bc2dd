// TLS for rediss://: one OpenSSL context per client, loaded once (CA,
// client certificate and key) and shared by all its connections, the
// subscriber's included. Builds without hiredis_ssl report rediss://
// unsupported when the context is made.
#pragma once

#include <memory>
#include <string>

#include "backends/redis/net/url.hpp"

struct redisContext;
struct ssl_ctx_st;

namespace dlock {

class TlsContext {
 public:
  // Throws InvalidArgument naming the option (tls_ca, tls_cert, tls_key)
  // whose file cannot be used; UnsupportedError in builds without TLS.
  explicit TlsContext(const TlsSettings& settings);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  // Runs the handshake on a connected context, bounded by its socket
  // timeout, checking the certificate against tls_sni or else `host`.
  // Throws PermanentConnectionError when the server's certificate is not
  // trusted or the server refuses the handshake, ConnectionError when the
  // connection broke or timed out; `where` names the server.
  void start(redisContext* context, const std::string& host, const std::string& where) const;

 private:
  ssl_ctx_st* context_ = nullptr;
  std::string sni_;
  bool verify_ = true;
};

// Gives a rediss:// config its TLS context (a no-op for other schemes).
void attach_tls_context(ClientConfig& config);

// OpenSSL's reason for the calling thread's last TLS failure ("tlsv13 alert
// certificate required"), empty when there is none; clears it.
std::string take_tls_error();

}  // namespace dlock
