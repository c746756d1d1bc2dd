#include "backends/redis/net/url.hpp"

#include <algorithm>
#include <cstddef>

#include "common/error.hpp"
#include "common/percent_decode.hpp"
#include "common/url_query.hpp"

namespace dlock {
namespace {

constexpr std::size_t longest_url = 64 * 1024;
constexpr int64_t day_ms = 24LL * 3600 * 1000;
constexpr int64_t max_sync_replicas = 1000;
constexpr int default_sentinel_port = 26379;

// Applies a tls_* option; false when `key` is not one.
bool apply_tls_option(const std::string& key, const std::string& value, TlsSettings& tls) {
  std::string* path = key == "tls_ca"     ? &tls.ca
                      : key == "tls_cert" ? &tls.cert
                      : key == "tls_key"  ? &tls.key
                      : key == "tls_sni"  ? &tls.sni
                                          : nullptr;
  if (path != nullptr) {
    *path = percent_decode(value, key);  // paths may hold '&' or '='
    if (path->empty()) throw InvalidArgument("url: " + key + " is empty");
    return true;
  }
  if (key == "tls_verify") {
    tls.verify = parse_tls_verify(value, "url");
    return true;
  }
  return false;
}

void apply_query(const std::string& query, ClientConfig& config) {
  for (const auto& [key, value] : query_options(query)) {
    if (key == "db") {
      config.db = static_cast<int>(url_integer(value, 0, 1 << 20, "db"));
    } else if (key == "connect_timeout_ms") {
      config.connect_timeout_ms = url_integer(value, 1, day_ms, key);
    } else if (key == "command_timeout_ms") {
      config.command_timeout_ms = url_integer(value, 1, day_ms, key);
    } else if (key == "watchdog_timeout_ms") {
      config.watchdog_timeout_ms = url_integer(value, 30, day_ms, key);
    } else if (key == "release_yield_ms") {
      config.release_yield_ms = url_integer(value, 0, 1000, key);
    } else if (key == "pool_size") {
      config.pool_size = static_cast<int32_t>(url_integer(value, 1, 1024, key));
    } else if (key == "sync_replicas") {
      config.sync_replicas = static_cast<int32_t>(url_integer(value, 0, max_sync_replicas, key));
    } else if (key == "sync_timeout_ms") {
      config.sync_timeout_ms = url_integer(value, 1, day_ms, key);
    } else if (key == "sentinel_user" || key == "sentinel_password") {
      if (!config.sentinel.enabled()) {
        throw InvalidArgument("url: " + key + " needs a redis-sentinel:// url");
      }
      (key == "sentinel_user" ? config.sentinel.user : config.sentinel.password) = percent_decode(value, key);
    } else if (!apply_tls_option(key, value, config.tls)) {
      throw InvalidArgument("url: unknown query option " + quote_url_part(key));
    }
  }
}

void apply_userinfo(const std::string& userinfo, ClientConfig& config) {
  const std::size_t colon = userinfo.find(':');
  if (colon == std::string::npos) {
    // redis://secret@host is the common password-only form (Redis before ACLs).
    config.password = percent_decode(userinfo, "password");
    return;
  }
  config.user = percent_decode(userinfo.substr(0, colon), "user");
  config.password = percent_decode(userinfo.substr(colon + 1), "password");
}

// host[:port] or [v6]:port, into `host` and `port` (unchanged when absent).
void parse_host_and_port(const std::string& authority, std::string& host, int& port_out) {
  host = authority;
  std::string port;
  if (!authority.empty() && authority[0] == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) {
      throw InvalidArgument("url: unterminated '[' in the host");
    }
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') {
        throw InvalidArgument("url: unexpected text after the IPv6 host");
      }
      port = authority.substr(close + 2);
    }
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) {
    throw InvalidArgument("url: the host is missing");
  }
  if (!port.empty() || authority.find(':') != std::string::npos) {
    port_out = static_cast<int>(url_integer(port, 1, 65535, "port"));
  }
}

// Splits [userinfo@]authority[/db], applying the userinfo and the database;
// returns the authority.
std::string apply_userinfo_and_db(std::string rest, ClientConfig& config) {
  // Passwords often hold '/' (base64): the userinfo ends at the last '@', and
  // only then does the path begin.
  const std::size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    apply_userinfo(rest.substr(0, at), config);
    rest = rest.substr(at + 1);
  }
  const std::size_t path_start = rest.find('/');
  const std::string path = path_start == std::string::npos ? "" : rest.substr(path_start + 1);
  if (!path.empty()) {
    config.db = static_cast<int>(url_integer(path, 0, 1 << 20, "database number"));
  }
  return rest.substr(0, path_start);
}

// A host list: host[:port] separated by ',' (`what` names an entry in messages).
std::vector<ServerAddress> parse_host_list(const std::string& authority, int default_port, const char* what) {
  std::vector<ServerAddress> addresses;
  std::size_t start = 0;
  for (int index = 1; start <= authority.size(); ++index) {
    const std::size_t end = std::min(authority.find(',', start), authority.size());
    const std::string entry = authority.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) {
      throw InvalidArgument(std::string("url: ") + what + " " + std::to_string(index) +
                            " of the host list is empty");
    }
    ServerAddress address{"", default_port};
    parse_host_and_port(entry, address.host, address.port);
    addresses.push_back(address);
  }
  return addresses;
}

void apply_tcp(const std::string& rest, ClientConfig& config) {
  const std::string authority = apply_userinfo_and_db(rest, config);
  if (authority.empty()) {
    throw InvalidArgument("url: the host is missing");
  }
  config.seeds = parse_host_list(authority, config.port, "server");
  config.host = config.seeds.front().host;
  config.port = config.seeds.front().port;
}

void apply_sentinels(const std::string& rest, ClientConfig& config) {
  const std::string authority = apply_userinfo_and_db(rest, config);
  if (authority.empty()) {
    throw InvalidArgument("url: the sentinel host list is empty");
  }
  config.sentinel.sentinels = parse_host_list(authority, default_sentinel_port, "sentinel");
}

// WAIT blocks for sync_timeout_ms on a connection whose reads end at the
// command timeout: the wait must fit in it.
void require_sync_timeout_within_command_timeout(const ClientConfig& config, const std::string& where) {
  if (config.sync_replicas > 0 && config.sync_timeout_ms >= config.command_timeout_ms) {
    throw InvalidArgument(where + ": sync_timeout_ms (" + std::to_string(config.sync_timeout_ms) +
                          ") must be less than command_timeout_ms (" +
                          std::to_string(config.command_timeout_ms) + ")");
  }
}

}  // namespace

const char* TlsSettings::first_option_set() const {
  if (!ca.empty()) return "tls_ca";
  if (!cert.empty()) return "tls_cert";
  if (!key.empty()) return "tls_key";
  if (!sni.empty()) return "tls_sni";
  if (!verify) return "tls_verify";
  return nullptr;
}

std::string host_and_port(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

namespace {

std::string host_list(const std::vector<ServerAddress>& addresses) {
  std::string text;
  for (const ServerAddress& address : addresses) {
    text += (text.empty() ? "" : ",") + host_and_port(address.host, address.port);
  }
  return text;
}

}  // namespace

std::string ClientConfig::describe() const {
  if (transport == Transport::unix_socket) {
    return "unix://" + socket_path;
  }
  if (sentinel.enabled()) {
    return (tls.enabled ? "rediss-sentinel://" : "redis-sentinel://") + host_list(sentinel.sentinels) + "#" +
           sentinel.master_name;
  }
  const std::string scheme = tls.enabled ? "rediss://" : "redis://";
  return scheme + (seeds.size() > 1 ? host_list(seeds) : host_and_port(host, port));
}

bool parse_tls_verify(const std::string& value, const std::string& where) {
  if (value == "full") return true;
  if (value == "none") return false;
  throw InvalidArgument(where + ": tls_verify must be full or none, got " + quote_url_part(value));
}

void check_option_ranges(const ClientConfig& config, const std::string& where) {
  auto require_range = [&](int64_t value, int64_t min, int64_t max, const char* field) {
    if (value < min || value > max) {
      throw InvalidArgument(where + ": " + field + " must be in [" + std::to_string(min) + ", " +
                            std::to_string(max) + "], got " + std::to_string(value));
    }
  };
  require_range(config.connect_timeout_ms, 1, day_ms, "connect_timeout_ms");
  require_range(config.command_timeout_ms, 1, day_ms, "command_timeout_ms");
  require_range(config.watchdog_timeout_ms, 30, day_ms, "watchdog_timeout_ms");
  require_range(config.pool_size, 1, 1024, "pool_size");
  require_range(config.sync_replicas, 0, max_sync_replicas, "sync_replicas");
  require_range(config.sync_timeout_ms, 1, day_ms, "sync_timeout_ms");
  require_sync_timeout_within_command_timeout(config, where);
}

void apply_url(const std::string& url, ClientConfig& config) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    throw InvalidArgument(
        "url: expected redis[s]://host[:port][/db], redis[s]-sentinel://host[:port][,...]#master or "
        "unix:///path, got no scheme");
  }
  if (url.size() > longest_url) {
    throw InvalidArgument("url: longer than " + std::to_string(longest_url) + " bytes");
  }
  const std::string scheme = url.substr(0, scheme_end);
  std::string rest = url.substr(scheme_end + 3);
  const bool sentinel = scheme == "redis-sentinel" || scheme == "rediss-sentinel";
  if (sentinel) {
    // The master's name is the fragment, after everything else (Lettuce's spelling).
    const std::size_t hash = rest.rfind('#');
    if (hash == std::string::npos || hash + 1 == rest.size()) {
      throw InvalidArgument("url: " + scheme + ":// needs the master's name after '#', as " + scheme +
                            "://host:26379#mymaster");
    }
    config.sentinel.master_name = percent_decode(rest.substr(hash + 1), "master name");
    rest = rest.substr(0, hash);
  }
  // The query starts after the userinfo, which may itself hold a '?'.
  const std::size_t at = rest.rfind('@');
  std::string query;
  if (const std::size_t q = rest.find('?', at == std::string::npos ? 0 : at); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (scheme == "redis" || scheme == "rediss") {
    apply_tcp(rest, config);
    config.tls.enabled = scheme == "rediss";
  } else if (sentinel) {
    apply_sentinels(rest, config);
    config.tls.enabled = scheme == "rediss-sentinel";
  } else if (scheme == "unix") {
    if (rest.empty() || rest[0] != '/') {
      throw InvalidArgument("url: unix:// needs an absolute socket path, as unix:///run/redis.sock");
    }
    config.transport = ClientConfig::Transport::unix_socket;
    config.socket_path = percent_decode(rest, "socket path");
  } else {
    // A malformed scheme may be a mistyped URL with credentials in it: not quoted.
    const bool plain =
        scheme.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789+.-") == std::string::npos;
    throw InvalidArgument("url: unknown scheme" + (plain ? " " + quote_url_part(scheme) : std::string()) +
                          ", expected redis, rediss, redis-sentinel, rediss-sentinel or unix");
  }
  apply_query(query, config);
  // TLS options without rediss:// would leave the connection in plain text.
  if (const char* option = config.tls.first_option_set(); option != nullptr && !config.tls.enabled) {
    throw InvalidArgument(std::string("url: ") + option + " needs a rediss:// url; " + scheme +
                          ":// connects in plain text");
  }
  require_sync_timeout_within_command_timeout(config, "url");
}

}  // namespace dlock
