#include "c_api/client_options.hpp"

#include <cstddef>
#include <string_view>

#include "common/error.hpp"

namespace dlock::c_api {
namespace {

struct PlannedBackend {
  std::string_view scheme;
  const char* name;
};

// The backends beside Redis (issues 23 and 24), by the schemes that name them.
constexpr PlannedBackend planned_backends[] = {
    {"zookeeper", "zookeeper"}, {"postgresql", "postgresql"}, {"postgres", "postgresql"}, {"mysql", "mysql"}};

// Whether this build has `backend`.
bool built_with(std::string_view backend) {
#ifdef DLOCK_HAVE_ZOOKEEPER
  if (backend == "zookeeper") return true;
#endif
#ifdef DLOCK_HAVE_POSTGRESQL
  if (backend == "postgresql") return true;
#endif
#ifdef DLOCK_HAVE_MYSQL
  if (backend == "mysql") return true;
#endif
  (void)backend;
  return false;
}

}  // namespace

ClientConfig config_from_options(const dlock_client_options* opts) {
  ClientConfig config;
  if (opts == nullptr) {
    return config;
  }
  if (opts->size < sizeof(size_t)) {
    throw InvalidArgument("opts: size is not set; initialise it with dlock_client_options_init()");
  }
  // Read only the fields the caller's struct has (it may predate later fields).
  auto has = [&](std::size_t offset, std::size_t width) { return opts->size >= offset + width; };
  if (has(offsetof(dlock_client_options, connect_timeout_ms), sizeof(int64_t))) {
    config.connect_timeout_ms = opts->connect_timeout_ms;
  }
  if (has(offsetof(dlock_client_options, command_timeout_ms), sizeof(int64_t))) {
    config.command_timeout_ms = opts->command_timeout_ms;
  }
  if (has(offsetof(dlock_client_options, watchdog_timeout_ms), sizeof(int64_t))) {
    config.watchdog_timeout_ms = opts->watchdog_timeout_ms;
  }
  if (has(offsetof(dlock_client_options, pool_size), sizeof(int32_t))) {
    config.pool_size = opts->pool_size;
  }
  auto copy_string = [&](const char* const dlock_client_options::*field, std::size_t offset,
                         std::string& to) {
    if (has(offset, sizeof(const char*)) && opts->*field != nullptr) to = opts->*field;
  };
  copy_string(&dlock_client_options::tls_ca, offsetof(dlock_client_options, tls_ca), config.tls.ca);
  copy_string(&dlock_client_options::tls_cert, offsetof(dlock_client_options, tls_cert), config.tls.cert);
  copy_string(&dlock_client_options::tls_key, offsetof(dlock_client_options, tls_key), config.tls.key);
  copy_string(&dlock_client_options::tls_sni, offsetof(dlock_client_options, tls_sni), config.tls.sni);
  std::string verify;
  copy_string(&dlock_client_options::tls_verify, offsetof(dlock_client_options, tls_verify), verify);
  if (!verify.empty()) config.tls.verify = parse_tls_verify(verify, "opts");
  if (has(offsetof(dlock_client_options, sync_replicas), sizeof(int32_t))) {
    config.sync_replicas = opts->sync_replicas;
  }
  if (has(offsetof(dlock_client_options, sync_timeout_ms), sizeof(int64_t))) {
    config.sync_timeout_ms = opts->sync_timeout_ms;
  }
  check_option_ranges(config, "opts");
  return config;
}

const char* backend_for_url(const std::string& url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end != std::string::npos) {
    const std::string_view scheme = std::string_view(url).substr(0, scheme_end);
    for (const PlannedBackend& backend : planned_backends) {
      if (scheme == backend.scheme) {
        if (built_with(backend.name)) return backend.name;
        throw UnsupportedError(std::string("url: the ") + backend.name +
                               " backend is not in this build of dlock");
      }
    }
  }
  return "redis";
}

}  // namespace dlock::c_api
