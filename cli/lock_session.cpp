#include "lock_session.hpp"

#include <cstdlib>

namespace dlock_cli {

Failure failure_for_status(int status, const std::string& message) {
  switch (status) {
    case DLOCK_E_INVALID:
      return usage_error(message);
    case DLOCK_E_CONNECTION:
    case DLOCK_E_AUTH:
    case DLOCK_E_PROTOCOL:
    case DLOCK_E_UNSUPPORTED:
    case DLOCK_E_CLOSED:
      return Failure(exit_code::server_unavailable, message);
    default:
      return Failure(exit_code::internal, message);
  }
}

void fail_with_status(int status, const std::string& doing, const std::string& detail_given) {
  std::string detail = detail_given;
  if (detail.empty()) detail = *dlock_last_error() ? dlock_last_error() : dlock_strerror(status);
  throw failure_for_status(status, doing + ": " + detail);
}

namespace {

// "the zookeeper server" for a zookeeper:// url: what a connection failure
// names, whichever backend the url's scheme picks.
std::string server_named_by(const std::string& url) {
  const std::size_t end = url.find("://");
  return end == std::string::npos ? "the server" : "the " + url.substr(0, end) + " server";
}

}  // namespace

ClientHandle open_client(const std::string& url, int64_t watchdog_lease_ms) {
  dlock_client_options options;
  dlock_client_options_init(&options);
  if (watchdog_lease_ms > 0) options.watchdog_timeout_ms = watchdog_lease_ms;
  dlock_client* client = nullptr;
  const int status = dlock_client_open(url.c_str(), &options, &client);
  // A url this build cannot serve (rediss:// without TLS, a backend it lacks) names no server.
  if (status == DLOCK_E_UNSUPPORTED) fail_with_status(status, "cannot open a client");
  if (status != DLOCK_OK) fail_with_status(status, "cannot connect to " + server_named_by(url));
  return ClientHandle(client, dlock_client_close);
}

LockSession::LockSession(const std::string& url, const std::string& name, int64_t watchdog_lease_ms)
    : name_(name), client_(open_client(url, watchdog_lease_ms)) {
  const int status = dlock_lock_new(client_.get(), name.c_str(), &lock_);
  if (status != DLOCK_OK) fail_with_status(status, "lock name '" + name + "'");
}

LockSession::~LockSession() {
  dlock_lock_free(lock_);
}

PermitSession::PermitSession(const std::string& url, const std::string& name, int permits,
                             int64_t watchdog_lease_ms)
    : client_(open_client(url, watchdog_lease_ms)) {
  int status = dlock_permit_semaphore_new(client_.get(), name.c_str(), &semaphore_);
  int set = 0;
  if (status == DLOCK_OK) status = dlock_permit_semaphore_try_set_permits(semaphore_, permits, &set);
  if (status != DLOCK_OK) {
    const std::string detail = dlock_last_error();
    dlock_permit_semaphore_free(semaphore_);
    fail_with_status(status, "semaphore '" + name + "'", detail);
  }
}

PermitSession::~PermitSession() {
  dlock_permit_semaphore_free(semaphore_);
}

ElectionSession::ElectionSession(const std::string& url, const std::string& name, int64_t watchdog_lease_ms)
    : name_(name), client_(open_client(url, watchdog_lease_ms)) {
  const int status = dlock_election_new(client_.get(), name.c_str(), &election_);
  if (status != DLOCK_OK) fail_with_status(status, "election name '" + name + "'");
}

ElectionSession::~ElectionSession() {
  dlock_election_free(election_);
}

std::string resolve_url(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  const char* from_environment = std::getenv("DLOCK_URL");
  if (from_environment && *from_environment) return from_environment;
  return "redis://127.0.0.1:6379";
}

}  // namespace dlock_cli
