// Client settings: the options struct's fields, then the URL that names the
// server, whose query options override them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dlock {

class TlsContext;
class MasterLocator;

// rediss:// settings: the URL's tls_* query options or the options struct's
// tls_* fields. Files are named here and loaded once, into the TlsContext.
struct TlsSettings {
  bool enabled = false;  // the scheme is rediss://
  std::string ca;        // PEM CA bundle; the system's CAs when empty
  std::string cert;      // client certificate (PEM), with `key`
  std::string key;
  std::string sni;     // the name sent and checked; the host when empty
  bool verify = true;  // tls_verify=full (the default) or none

  // The first tls_* option set, for the message when TLS is off; null if none.
  const char* first_option_set() const;
};

// A server's host and port, as a URL's host list names it.
struct ServerAddress {
  std::string host;
  int port = 6379;
};

// redis-sentinel:// settings: the sentinels to ask, in turn, for the address
// of the master they call `master_name`.
struct SentinelSettings {
  std::vector<ServerAddress> sentinels;  // empty: not a Sentinel deployment
  std::string master_name;
  std::string user;  // sentinel_user=; the userinfo is the master's
  std::string password;

  bool enabled() const { return !sentinels.empty(); }
};

struct ClientConfig {
  enum class Transport { tcp, unix_socket };

  Transport transport = Transport::tcp;
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string socket_path;
  // redis[s]://host:port,host:port...: every server listed, in order (host
  // and port are the first). Seeds of a Cluster: any node of it will do.
  std::vector<ServerAddress> seeds;
  std::string user;
  std::string password;
  int db = 0;
  int64_t connect_timeout_ms = 2000;
  int64_t command_timeout_ms = 3000;
  int64_t watchdog_timeout_ms = 30000;
  int32_t pool_size = 8;
  // How long a release that woke waiters leaves the lock to them, against
  // newcomers and the owner that released it, which need no wake-up and
  // would otherwise always win. 0: never.
  int64_t release_yield_ms = 10;
  TlsSettings tls;
  // Made from `tls` by attach_tls_context(); copies of the config share it.
  std::shared_ptr<const TlsContext> tls_context;
  SentinelSettings sentinel;
  // Made from `sentinel` by each client core (see master_locator.hpp):
  // connections made with this config dial the master it currently names.
  std::shared_ptr<MasterLocator> master_locator;
  // Replica sync: a grant counts once WAIT confirms it reached this many
  // replicas within sync_timeout_ms (0: no WAIT).
  int32_t sync_replicas = 0;
  int64_t sync_timeout_ms = 1000;

  // How long a request's outcome is kept for its retries: longer than any
  // retry of it can come (they all end within the command timeout).
  int64_t retry_window_ms() const { return command_timeout_ms * 2; }

  // Where the server is, for messages: never includes the password.
  std::string describe() const;
};

// host:port, an IPv6 host in brackets: how messages name a server.
std::string host_and_port(const std::string& host, int port);

// "full" or "none"; anything else is an InvalidArgument naming `where`.
bool parse_tls_verify(const std::string& value, const std::string& where);

// The options' bounds, the same whether they came from a URL or elsewhere
// (the C ABI's options struct); InvalidArgument naming `where` and the field.
void check_option_ranges(const ClientConfig& config, const std::string& where);

// Parses redis://[user[:password]@]host[:port][/db][?k=v&...],
// unix:///path[?db=N&k=v...] (rediss:// for TLS) or
// redis-sentinel://[user[:password]@]host[:port][,host[:port]...][/db][?k=v...]#master
// (rediss-sentinel:// for TLS) into `config`. Throws InvalidArgument naming
// the part that is wrong.
void apply_url(const std::string& url, ClientConfig& config);

}  // namespace dlock
