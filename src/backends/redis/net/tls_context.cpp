#include "backends/redis/net/tls_context.hpp"

#include "common/error.hpp"

#ifdef DLOCK_HAVE_TLS
#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <hiredis/hiredis_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#endif

namespace dlock {

void attach_tls_context(ClientConfig& config) {
  if (config.tls.enabled) config.tls_context = std::make_shared<const TlsContext>(config.tls);
}

#ifdef DLOCK_HAVE_TLS

namespace {

std::string openssl_reason(unsigned long code) {
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : "unknown TLS error";
}

// A file the user named, checked first so that a typo reads as one.
void require_readable(const std::string& path, const char* option) {
  if (!std::ifstream(path).good()) {
    throw InvalidArgument(std::string(option) + ": cannot read '" + path + "': " + std::strerror(errno));
  }
}

[[noreturn]] void throw_unusable(const std::string& path, const char* option, const char* what) {
  const std::string reason = take_tls_error();
  throw InvalidArgument(std::string(option) + ": '" + path + "' is not " + what +
                        (reason.empty() ? "" : ": " + reason));
}

bool is_ip_address(const std::string& host) {
  unsigned char address[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), address) == 1 || inet_pton(AF_INET6, host.c_str(), address) == 1;
}

struct SslDeleter {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

}  // namespace

TlsContext::TlsContext(const TlsSettings& settings) : sni_(settings.sni), verify_(settings.verify) {
  static std::once_flag initialised;
  std::call_once(initialised, [] { redisInitOpenSSL(); });
  if (settings.cert.empty() != settings.key.empty()) {
    throw InvalidArgument(settings.cert.empty() ? "tls_key is set without tls_cert"
                                                : "tls_cert is set without tls_key");
  }
  for (const auto& [path, option] : {std::pair{&settings.ca, "tls_ca"}, std::pair{&settings.cert, "tls_cert"},
                                     std::pair{&settings.key, "tls_key"}}) {
    if (!path->empty()) require_readable(*path, option);
  }
  ERR_clear_error();
  context_ = SSL_CTX_new(TLS_client_method());
  if (context_ == nullptr) throw std::bad_alloc();
  std::unique_ptr<SSL_CTX, void (*)(SSL_CTX*)> owned(context_, SSL_CTX_free);
  SSL_CTX_set_min_proto_version(context_, TLS1_2_VERSION);
  SSL_CTX_set_verify(context_, settings.verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nullptr);
  if (settings.ca.empty()) {
    SSL_CTX_set_default_verify_paths(context_);
  } else if (SSL_CTX_load_verify_locations(context_, settings.ca.c_str(), nullptr) != 1) {
    throw_unusable(settings.ca, "tls_ca", "a PEM CA bundle");
  }
  if (!settings.cert.empty()) {
    if (SSL_CTX_use_certificate_chain_file(context_, settings.cert.c_str()) != 1) {
      throw_unusable(settings.cert, "tls_cert", "a PEM certificate");
    }
    if (SSL_CTX_use_PrivateKey_file(context_, settings.key.c_str(), SSL_FILETYPE_PEM) != 1) {
      throw_unusable(settings.key, "tls_key", "a PEM private key");
    }
    if (SSL_CTX_check_private_key(context_) != 1) {
      throw_unusable(settings.key, "tls_key", "the key of tls_cert");
    }
  }
  owned.release();
}

TlsContext::~TlsContext() {
  SSL_CTX_free(context_);
}

void TlsContext::start(redisContext* context, const std::string& host, const std::string& where) const {
  std::unique_ptr<SSL, SslDeleter> ssl(SSL_new(context_));
  if (!ssl) throw std::bad_alloc();
  const std::string& name = sni_.empty() ? host : sni_;
  const bool ip = is_ip_address(name);
  if (!ip) SSL_set_tlsext_host_name(ssl.get(), name.c_str());  // SNI carries host names only
  if (verify_) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
    const int named = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                         : X509_VERIFY_PARAM_set1_host(param, name.c_str(), 0);
    if (named != 1) throw InvalidArgument("tls_sni: cannot check certificates for '" + name + "'");
  }
  if (redisInitiateSSL(context, ssl.get()) == REDIS_OK) {
    ssl.release();  // the connection owns it now
    return;
  }
  const std::string prefix = "TLS handshake with " + where + " failed: ";
  const long verified = SSL_get_verify_result(ssl.get());
  if (verify_ && verified != X509_V_OK) {
    take_tls_error();
    throw PermanentConnectionError(prefix +
                                   "certificate verify failed: " + X509_verify_cert_error_string(verified));
  }
  const std::string reason = take_tls_error();
  if (!reason.empty()) throw PermanentConnectionError(prefix + reason);  // refused by the server
  // No TLS error: the socket timed out (OpenSSL still wants to read or
  // write) or the connection broke.
  std::string detail = context->errstr;
  if (SSL_want_read(ssl.get()) || SSL_want_write(ssl.get()) ||
      detail.find("temporarily unavailable") != std::string::npos) {
    detail = "timed out";
  } else if (detail.find(": Success") != std::string::npos) {
    detail = "the server closed the connection";  // EOF, errno unset
  }
  throw ConnectionError(prefix + detail);
}

std::string take_tls_error() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  return code == 0 ? std::string() : openssl_reason(code);
}

#else  // builds without hiredis_ssl

TlsContext::TlsContext(const TlsSettings&) {
  throw UnsupportedError("url: rediss:// (TLS) is not supported by this build (hiredis without hiredis_ssl)");
}

TlsContext::~TlsContext() = default;

void TlsContext::start(redisContext*, const std::string&, const std::string&) const {}

std::string take_tls_error() {
  return {};
}

#endif

}  // namespace dlock
