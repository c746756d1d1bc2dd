// The client entry points.
#include <memory>
#include <string>

#include "backends/redis/net/tls_context.hpp"
#include "backends/redis/redis_backend.hpp"
#include "backends/redis/redis_session.hpp"
#include "c_api/client_options.hpp"
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#ifdef DLOCK_HAVE_ZOOKEEPER
#include "backends/zookeeper/zk_backend.hpp"
#include "backends/zookeeper/zk_client_session.hpp"
#include "backends/zookeeper/zk_url.hpp"
#endif
#if defined(DLOCK_HAVE_POSTGRESQL) || defined(DLOCK_HAVE_MYSQL)
#include "backends/sql/sql_backend.hpp"
#include "backends/sql/sql_client_session.hpp"
#include "backends/sql/sql_url.hpp"
#include "common/error.hpp"
#endif

using dlock::c_api::guarded;
using dlock::c_api::require;

#ifdef DLOCK_HAVE_ZOOKEEPER
namespace {

// A client on zookeeper://: one ZooKeeper session per core.
dlock_client* open_zookeeper(const std::string& url, const dlock::ClientConfig& options) {
  const dlock::zk::ZkUrl parsed = dlock::zk::parse_zk_url(url);
  auto client =
      std::make_shared<dlock::Client>(dlock::zk_client_config(options, parsed),
                                      [parsed](const dlock::ClientConfig& config, dlock::ClientStats&, bool) {
                                        return std::make_unique<dlock::ZkClientSession>(parsed, config);
                                      });
  return new dlock_client{client, std::make_unique<dlock::ZkBackend>(client)};
}

}  // namespace
#endif

#if defined(DLOCK_HAVE_POSTGRESQL) || defined(DLOCK_HAVE_MYSQL)
namespace {

// A client on postgresql:// or mysql://: one SQL session (its connections,
// listener and keeper) per core, in the URL's mode (lease, or session).
dlock_client* open_sql(const std::string& url, const dlock::ClientConfig& options) {
  const dlock::sql::SqlUrl parsed = dlock::sql::parse_sql_url(url);
  auto client = std::make_shared<dlock::Client>(
      options, [parsed](const dlock::ClientConfig&, dlock::ClientStats&, bool) {
        return std::make_unique<dlock::SqlClientSession>(parsed);
      });
  return new dlock_client{client,
                          std::make_unique<dlock::SqlBackend>(client, dlock::sql::scheme_of(parsed.dialect))};
}

}  // namespace
#endif

extern "C" {

void dlock_client_options_init(dlock_client_options* opts) {
  if (opts == nullptr) return;
  const dlock::ClientConfig defaults;
  opts->size = sizeof(dlock_client_options);
  opts->connect_timeout_ms = defaults.connect_timeout_ms;
  opts->command_timeout_ms = defaults.command_timeout_ms;
  opts->watchdog_timeout_ms = defaults.watchdog_timeout_ms;
  opts->pool_size = defaults.pool_size;
  opts->tls_ca = nullptr;
  opts->tls_cert = nullptr;
  opts->tls_key = nullptr;
  opts->tls_sni = nullptr;
  opts->tls_verify = nullptr;
  opts->sync_replicas = defaults.sync_replicas;
  opts->sync_timeout_ms = defaults.sync_timeout_ms;
}

int dlock_client_open(const char* url, const dlock_client_options* opts, dlock_client** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(url, "url");
    const std::string backend = dlock::c_api::backend_for_url(url);  // UnsupportedError: not in this build
    dlock::ClientConfig config = dlock::c_api::config_from_options(opts);
#ifdef DLOCK_HAVE_ZOOKEEPER
    if (backend == "zookeeper") {
      *out = open_zookeeper(url, config);
      return DLOCK_OK;
    }
#endif
#if defined(DLOCK_HAVE_POSTGRESQL) || defined(DLOCK_HAVE_MYSQL)
    if (backend == "postgresql" || backend == "mysql") {
      *out = open_sql(url, config);
      return DLOCK_OK;
    }
#endif
    dlock::apply_url(url, config);
    dlock::attach_tls_context(config);
    auto client = std::make_shared<dlock::Client>(
        config, [](const dlock::ClientConfig& config, dlock::ClientStats& stats, bool server_answered) {
          return std::make_unique<dlock::RedisSession>(config, stats, server_answered);
        });
    *out = new dlock_client{client, std::make_unique<dlock::RedisBackend>(client)};
    return DLOCK_OK;
  });
}

void dlock_client_close(dlock_client* client) {
  if (client == nullptr) return;
  guarded([&] {
    client->client->close();
    return DLOCK_OK;
  });
  delete client;
}

const char* dlock_client_backend(const dlock_client* client) {
  return client != nullptr ? client->backend->scheme() : nullptr;
}

}  // extern "C"
