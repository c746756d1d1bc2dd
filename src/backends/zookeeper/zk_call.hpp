// Blocking ZooKeeper requests: each one is a zoo_a* call whose completion (on
// the C client's completion thread) fulfils a promise, waited for with the
// session's command timeout. The send_* forms return the future without
// waiting, so a caller can pipeline several requests on one session (the
// server answers one session's requests in order) and wait once.
#pragma once

#include <zookeeper/zookeeper.h>

#include <future>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_session.hpp"

namespace dlock {
namespace zk {

struct CreateResult {
  int rc = ZSYSTEMERROR;
  std::string path;  // the created node (with its sequence suffix)
  Stat stat{};
};

struct ChildrenResult {
  int rc = ZSYSTEMERROR;
  std::vector<std::string> children;  // names, not paths
  Stat stat{};
};

struct StatResult {
  int rc = ZSYSTEMERROR;
  Stat stat{};
};

struct DataResult {
  int rc = ZSYSTEMERROR;
  std::string data;
  Stat stat{};
};

std::future<CreateResult> send_create(ZkSession& session, const std::string& path, const std::string& data,
                                      int mode);
// With `watcher` (may be null): a child watch on `path`.
std::future<ChildrenResult> send_get_children(ZkSession& session, const std::string& path,
                                              watcher_fn watcher = nullptr, void* watcher_context = nullptr);
// With `watcher` (may be null): a data watch, set when the node exists.
std::future<DataResult> send_get(ZkSession& session, const std::string& path, watcher_fn watcher = nullptr,
                                 void* watcher_context = nullptr);
std::future<StatResult> send_exists(ZkSession& session, const std::string& path, watcher_fn watcher = nullptr,
                                    void* watcher_context = nullptr);
std::future<int> send_delete(ZkSession& session, const std::string& path);
// Sets `path`'s data, whatever its version.
std::future<StatResult> send_set(ZkSession& session, const std::string& path, const std::string& data);
// Adds `credentials` of `scheme` ("digest": "user:password") to the session's identities.
std::future<int> send_add_auth(ZkSession& session, const std::string& scheme, const std::string& credentials);

// Waits for an answer up to the session's command timeout (counted in the
// session's waits_for_server()); throws ConnectionError naming `what` and
// `path` when none comes.
template <typename Result>
Result await(ZkSession& session, std::future<Result>& answer, const char* what, const std::string& path);

CreateResult create(ZkSession& session, const std::string& path, const std::string& data, int mode);
ChildrenResult get_children(ZkSession& session, const std::string& path);
DataResult get(ZkSession& session, const std::string& path);
StatResult exists(ZkSession& session, const std::string& path);
int remove(ZkSession& session, const std::string& path);

// Throws the project's error class for `rc` (ConnectionError, AuthError,
// InvalidArgument, else ProtocolError), naming the request and the path.
[[noreturn]] void raise_for(int rc, const char* what, const std::string& path);
// Whether `rc` says the outcome is unknown (the request may or may not have been applied).
bool outcome_unknown(int rc);

}  // namespace zk
}  // namespace dlock
