// zookeeper://host[:port][,host[:port]...][/chroot][?options] (the project's
// specification, section 12), parsed into the session's options. A host
// without a port gets 2181. Options: session_timeout_ms (asked of the server,
// which clamps it to its own bounds; default 10000), connect_timeout_ms,
// command_timeout_ms, and auth=digest:user:password (percent-encoded). Other
// options are refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "backends/zookeeper/zk_session.hpp"

namespace dlock {
namespace zk {

struct ZkUrl {
  SessionOptions session;  // its hosts, session timeout and credentials
  // Set by the URL, over the client's options.
  std::optional<int64_t> connect_timeout_ms;
  std::optional<int64_t> command_timeout_ms;

  // zookeeper://hosts/chroot, without credentials: how messages name it.
  std::string server() const;
};

// Throws InvalidArgument naming what is wrong.
ZkUrl parse_zk_url(const std::string& url);

}  // namespace zk
}  // namespace dlock
