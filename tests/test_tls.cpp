// TLS (rediss://) against a redis-server that listens on a TLS port only, with
// certificates made by `openssl` for each test: server verification, client
// certificates, wrong CAs and host names, tls_verify=none, plain text against
// the TLS port, and bad TLS options. Skipped only in builds without TLS; CTest
// sets DLOCK_REQUIRE_TLS=1 in builds with it, which makes a skip a failure.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "background_acquire.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_inspect.hpp"
#include "redis_server.hpp"
#include "status_assertions.hpp"
#include "tls_certificates.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

bool tls_required() {
  const char* required = std::getenv("DLOCK_REQUIRE_TLS");
  return required != nullptr && std::string(required) == "1";
}

// Opens `url`; the status, with the client closed again.
int open_status(const std::string& url, const dlock_client_options* options = nullptr) {
  dlock_client* client = nullptr;
  const int status = dlock_client_open(url.c_str(), options, &client);
  dlock_client_close(client);
  return status;
}

class Tls : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!build_has_tls()) {
      if (tls_required()) FAIL() << "DLOCK_REQUIRE_TLS=1 but rediss:// is unsupported in this build";
      GTEST_SKIP() << "this build has no TLS (hiredis without hiredis_ssl)";
    }
    certificates_ = std::make_unique<TlsCertificates>();
  }

  // Starts the server; `auth_clients` is its tls-auth-clients setting.
  void start_server(const std::string& auth_clients = "no") {
    RedisServerConfig config;
    config.tls = RedisServerTls{certificates_->server_cert(), certificates_->server_key(),
                                certificates_->ca(),          auth_clients,
                                certificates_->client_cert(), certificates_->client_key()};
    server_ = std::make_unique<RedisServer>(config);
  }

  // rediss://127.0.0.1:<port>?<query>
  std::string url(const std::string& query) const { return server_->url() + "?" + query; }
  std::string trusting(const std::string& ca) const { return url("tls_ca=" + ca); }

  // Acquires and releases a lock through `url`, checking the key on the server.
  void expect_lock_round_trip(const std::string& url, const dlock_client_options* options = nullptr) {
    dlock_client* raw = nullptr;
    ASSERT_TRUE(status_is(dlock_client_open(url.c_str(), options, &raw), DLOCK_OK));
    const ClientHandle client(raw);
    const LockHandle lock = new_lock(client.get(), "over-tls");
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 10000, nullptr), DLOCK_OK));
    EXPECT_TRUE(key_exists(*server_, "over-tls"));
    EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    EXPECT_FALSE(key_exists(*server_, "over-tls"));
  }

  std::unique_ptr<TlsCertificates> certificates_;
  std::unique_ptr<RedisServer> server_;
};

::testing::AssertionResult last_error_mentions(const std::string& text) {
  const std::string error = dlock_last_error();
  if (error.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the last error does not mention '" << text << "': " << error;
}

TEST_F(Tls, VerifiedServerServesLocksWaitersAndTheWatchdog) {
  start_server();
  dlock_client_options options = options_with_watchdog(600);
  const ClientHandle holder = open_client(trusting(certificates_->ca()), options);
  const ClientHandle waiter = open_client(trusting(certificates_->ca()));
  const LockHandle held = new_lock(holder.get(), "shared");
  const LockHandle wanted = new_lock(waiter.get(), "shared");

  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  // The watchdog renews over TLS: the 600 ms lease outlives three of itself.
  std::this_thread::sleep_for(milliseconds(1800));
  EXPECT_GT(pttl(*server_, "shared"), 0) << "the watchdog did not renew over TLS";

  // A waiter is woken by the release's pub/sub message, not by a lease running out.
  std::future<AcquireOutcome> waiting = acquire_in_background(wanted.get(), 7, 10000);
  std::this_thread::sleep_for(milliseconds(300));
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  const AcquireOutcome outcome = waiting.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), 500) << "the waiter was not woken by pub/sub";
  EXPECT_TRUE(status_is(outcome.release_status, DLOCK_OK));
}

TEST_F(Tls, OptionsStructCarriesTheTlsSettings) {
  start_server("yes");
  dlock_client_options options = default_options();
  const std::string ca = certificates_->ca();
  const std::string cert = certificates_->client_cert();
  const std::string key = certificates_->client_key();
  options.tls_ca = ca.c_str();
  options.tls_cert = cert.c_str();
  options.tls_key = key.c_str();
  options.tls_verify = "full";
  expect_lock_round_trip(server_->url(), &options);
}

TEST_F(Tls, ClientCertificateRequiredAndGiven) {
  start_server("yes");
  expect_lock_round_trip(url("tls_ca=" + certificates_->ca() + "&tls_cert=" + certificates_->client_cert() +
                             "&tls_key=" + certificates_->client_key()));
}

TEST_F(Tls, ClientCertificateRequiredAndMissingIsAClearConnectionError) {
  start_server("yes");
  const int64_t start = monotonic_ms();
  EXPECT_TRUE(status_is(open_status(trusting(certificates_->ca())), DLOCK_E_CONNECTION));
  EXPECT_TRUE(last_error_mentions("certificate"));
  EXPECT_LT(monotonic_ms() - start, 1500) << "a refused certificate is not worth retrying";
}

TEST_F(Tls, WrongCaIsAConnectionErrorNamingTheCertificateProblem) {
  start_server();
  const int64_t start = monotonic_ms();
  EXPECT_TRUE(status_is(open_status(trusting(certificates_->other_ca())), DLOCK_E_CONNECTION));
  EXPECT_TRUE(last_error_mentions("certificate verify failed"));
  EXPECT_TRUE(last_error_mentions("rediss://127.0.0.1:" + std::to_string(server_->port())));
  EXPECT_LT(monotonic_ms() - start, 1500) << "an untrusted certificate is not worth retrying";
}

TEST_F(Tls, CertificateForAnotherNameIsRejected) {
  start_server();
  EXPECT_TRUE(status_is(open_status(url("tls_ca=" + certificates_->ca() + "&tls_sni=redis.example.com")),
                        DLOCK_E_CONNECTION));
  EXPECT_TRUE(last_error_mentions("hostname mismatch"));
  // The name the certificate does carry is accepted.
  expect_lock_round_trip(url("tls_ca=" + certificates_->ca() + "&tls_sni=localhost"));
}

TEST_F(Tls, VerifyNoneAcceptsAnUntrustedCertificate) {
  start_server();
  expect_lock_round_trip(url("tls_ca=" + certificates_->other_ca() + "&tls_verify=none"));
}

TEST_F(Tls, PlainTextAgainstTheTlsPortFailsFast) {
  start_server();
  const std::string plain =
      "redis://127.0.0.1:" + std::to_string(server_->port()) + "?command_timeout_ms=3000";
  const int64_t start = monotonic_ms();
  EXPECT_TRUE(status_is(open_status(plain), DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - start, 1000) << "plain text against a TLS port must not wait out the timeout";
  EXPECT_TRUE(last_error_mentions("rediss://"));
}

// A plain server reads the ClientHello as the start of an inline command and
// waits for its end: the handshake is bounded by the command timeout.
TEST_F(Tls, TlsAgainstAPlainPortIsBoundedByTheTimeout) {
  RedisServer plain_server;
  const std::string url = "rediss://127.0.0.1:" + std::to_string(plain_server.port()) +
                          "?tls_ca=" + certificates_->ca() + "&command_timeout_ms=400";
  const int64_t start = monotonic_ms();
  EXPECT_TRUE(status_is(open_status(url), DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - start, 1500) << "the handshake outlived the command timeout";
  EXPECT_TRUE(last_error_mentions("TLS handshake"));
  EXPECT_TRUE(last_error_mentions("timed out"));
}

TEST_F(Tls, MissingCaFileIsInvalidNamingTlsCa) {
  EXPECT_TRUE(invalid_naming(open_status("rediss://127.0.0.1:1?tls_ca=/nonexistent/ca.crt"), "tls_ca"));
  EXPECT_TRUE(last_error_mentions("/nonexistent/ca.crt"));
}

TEST_F(Tls, UnusableCertificateFilesAreInvalidNamingTheOption) {
  const std::string not_pem = certificates_->client_key();  // a key is not a certificate
  EXPECT_TRUE(invalid_naming(open_status("rediss://127.0.0.1:1?tls_ca=" + not_pem), "tls_ca"));
  EXPECT_TRUE(invalid_naming(open_status("rediss://127.0.0.1:1?tls_cert=" + certificates_->client_cert() +
                                         "&tls_key=" + certificates_->ca()),
                             "tls_key"));
  EXPECT_TRUE(invalid_naming(open_status("rediss://127.0.0.1:1?tls_cert=" + certificates_->client_cert()),
                             "tls_key"));
}

// Option errors are found before TLS is needed: these run in every build.
TEST(TlsOptions, NeedRediss) {
  EXPECT_TRUE(invalid_naming(open_status("redis://127.0.0.1:1?tls_ca=/etc/ssl/ca.crt"), "tls_ca"));
  EXPECT_TRUE(invalid_naming(open_status("unix:///tmp/r.sock?tls_sni=localhost"), "tls_sni"));
  dlock_client_options options = default_options();
  options.tls_verify = "none";
  EXPECT_TRUE(invalid_naming(open_status("redis://127.0.0.1:1", &options), "tls_verify"));
  options.tls_verify = "sometimes";
  EXPECT_TRUE(invalid_naming(open_status("rediss://127.0.0.1:1", &options), "tls_verify"));
}

TEST(TlsOptions, UrlErrorsDoNotQuoteThePassword) {
  EXPECT_TRUE(
      invalid_naming(open_status("rediss://alice:s3cret-pw@127.0.0.1:1?tls_verify=maybe"), "tls_verify"));
  EXPECT_EQ(std::string(dlock_last_error()).find("s3cret-pw"), std::string::npos) << dlock_last_error();
}

}  // namespace
}  // namespace dlock_test
