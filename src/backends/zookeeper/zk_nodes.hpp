// Creating the nodes Curator's recipes create: CONTAINER parents made on
// demand, and "protected" EPHEMERAL_SEQUENTIAL nodes whose name starts with
// "_c_<uuid>-", so that a create whose answer was lost is settled by finding
// the node under its prefix (Curator's withProtection()).
#pragma once

#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_watches.hpp"

namespace dlock {
namespace zk {

struct CreatedNode {
  std::string path;
  std::uint64_t czxid = 0;
  // The parent's children, listed right behind the create (one round trip);
  // empty when the create had to be settled by looking for it.
  std::optional<std::vector<std::string>> children;
};

// As Curator's ZKPaths.mkdirs(..., asContainers): `path` and every missing
// ancestor made a container; an ancestor the server deleted meanwhile (an
// emptied container) is made again, a few times. Throws what the creates meet.
void create_containers(ZkSession& session, const std::string& path);

// "_c_<uuid>-<base>": the start of a protected node's name.
std::string protected_prefix(const std::string& base);

// Creates `parent`/`prefix`<sequence> with `data`, making missing parents as
// containers, and lists `parent` behind it, leaving a child watch for
// `watch_id` on it when nonzero. Throws ConnectionError, AuthError,
// InvalidArgument, ProtocolError.
CreatedNode create_protected(ZkSession& session, const std::string& parent, const std::string& prefix,
                             const std::string& data, WatchRegistry::Id watch_id = 0);

// Lists `path`'s children, leaving a child watch for `watch_id` when nonzero;
// the answer is not waited for.
std::future<ChildrenResult> send_list(ZkSession& session, const std::string& path,
                                      WatchRegistry::Id watch_id);

// Deletes the node a grant was held by; throws LostError naming `what`
// ("lock", "lease") when it was gone already: the session expired, or another
// client deleted it.
void delete_held(ZkSession& session, const std::string& path, const char* what);

// A node a grant is held by, as its grant recorded it.
struct HeldNode {
  std::string path;
  std::uint64_t czxid = 0;
};

// Whether each of `nodes` is still held: it exists, with the czxid it was
// created with and this session as its ephemeral owner (a node another client
// deleted, or recreated on the same path, is not). One round trip: the checks
// are pipelined and the last answer awaited; none, without a round trip, on
// a session the server expired. Throws ConnectionError when they
// are not all answered (the connection broke, the command timeout passed).
std::vector<bool> still_held(ZkSession& session, const std::vector<HeldNode>& nodes);

// The last component of `path`.
std::string name_of(const std::string& path);

}  // namespace zk
}  // namespace dlock
