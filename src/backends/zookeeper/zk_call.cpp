#include "backends/zookeeper/zk_call.hpp"

#include <memory>
#include <type_traits>
#include <utility>

#include "common/error.hpp"

namespace dlock {
namespace zk {
namespace {

// What a completion needs: the promise it fulfils and the request's send time.
// Owned by the completion (or freed at once when the request was never sent):
// a caller that stopped waiting leaves it nothing to dangle on. Counted in the
// session's requests in flight from before the send until the answer is given.
template <typename Result>
struct Pending {
  ZkSession* session;
  Clock::time_point sent_at = Clock::now();
  std::promise<Result> answer;
};

// An answer from the server (not the client's own loss or close) confirms the session.
bool server_answered(int rc) {
  return rc != ZCONNECTIONLOSS && rc != ZOPERATIONTIMEOUT && rc != ZCLOSING && rc != ZSESSIONEXPIRED &&
         rc != ZINVALIDSTATE;
}

template <typename Result>
void fulfil(const void* data, Result result) {
  std::unique_ptr<Pending<Result>> pending(static_cast<Pending<Result>*>(const_cast<void*>(data)));
  if (server_answered(result.rc)) pending->session->confirm_contact(pending->sent_at);
  pending->answer.set_value(std::move(result));
  pending->session->request_answered();  // last: the session may be closed from here on
}

void fulfil_rc(const void* data, int rc) {
  std::unique_ptr<Pending<int>> pending(static_cast<Pending<int>*>(const_cast<void*>(data)));
  if (server_answered(rc)) pending->session->confirm_contact(pending->sent_at);
  pending->answer.set_value(rc);
  pending->session->request_answered();  // last: the session may be closed from here on
}

void on_created(int rc, const char* path, const Stat* stat, const void* data) {
  CreateResult result;
  result.rc = rc;
  if (rc == ZOK) {
    if (path) result.path = path;
    if (stat) result.stat = *stat;
  }
  fulfil(data, std::move(result));
}

void on_children(int rc, const String_vector* names, const Stat* stat, const void* data) {
  ChildrenResult result;
  result.rc = rc;
  if (rc == ZOK && names) {
    result.children.reserve(static_cast<std::size_t>(names->count));
    for (int i = 0; i < names->count; ++i) result.children.emplace_back(names->data[i]);
  }
  if (rc == ZOK && stat) result.stat = *stat;
  fulfil(data, std::move(result));
}

void on_data(int rc, const char* value, int length, const Stat* stat, const void* data) {
  DataResult result;
  result.rc = rc;
  if (rc == ZOK) {
    if (value && length > 0) result.data.assign(value, static_cast<std::size_t>(length));
    if (stat) result.stat = *stat;
  }
  fulfil(data, std::move(result));
}

void on_stat(int rc, const Stat* stat, const void* data) {
  StatResult result;
  result.rc = rc;
  if (rc == ZOK && stat) result.stat = *stat;
  fulfil(data, std::move(result));
}

void on_void(int rc, const void* data) {
  fulfil_rc(data, rc);
}

// Sends with `start` (a zoo_a* call given the Pending as its data); a request
// the client refused to send is answered at once with the client's code.
template <typename Result, typename Start>
std::future<Result> send(ZkSession& session, Start start) {
  auto pending = std::make_unique<Pending<Result>>();
  pending->session = &session;
  std::future<Result> answer = pending->answer.get_future();
  session.request_sent();  // before the send: the answer may come before start() returns
  const int rc = start(pending.get());
  if (rc == ZOK) {
    pending.release();  // the completion owns it now
  } else {
    Result refused{};
    if constexpr (std::is_same_v<Result, int>) {
      refused = rc;
    } else {
      refused.rc = rc;
    }
    pending->answer.set_value(std::move(refused));
    session.request_answered();
  }
  return answer;
}

}  // namespace

std::future<CreateResult> send_create(ZkSession& session, const std::string& path, const std::string& data,
                                      int mode) {
  return send<CreateResult>(session, [&](void* pending) {
    return zoo_acreate2(session.handle(), path.c_str(), data.data(), static_cast<int>(data.size()),
                        &ZOO_OPEN_ACL_UNSAFE, mode, on_created, pending);
  });
}

std::future<ChildrenResult> send_get_children(ZkSession& session, const std::string& path, watcher_fn watcher,
                                              void* watcher_context) {
  return send<ChildrenResult>(session, [&](void* pending) {
    return zoo_awget_children2(session.handle(), path.c_str(), watcher, watcher_context, on_children,
                               pending);
  });
}

std::future<DataResult> send_get(ZkSession& session, const std::string& path, watcher_fn watcher,
                                 void* watcher_context) {
  return send<DataResult>(session, [&](void* pending) {
    return zoo_awget(session.handle(), path.c_str(), watcher, watcher_context, on_data, pending);
  });
}

std::future<StatResult> send_exists(ZkSession& session, const std::string& path, watcher_fn watcher,
                                    void* watcher_context) {
  return send<StatResult>(session, [&](void* pending) {
    return zoo_awexists(session.handle(), path.c_str(), watcher, watcher_context, on_stat, pending);
  });
}

std::future<int> send_delete(ZkSession& session, const std::string& path) {
  return send<int>(session, [&](void* pending) {
    return zoo_adelete(session.handle(), path.c_str(), -1, on_void, pending);
  });
}

std::future<StatResult> send_set(ZkSession& session, const std::string& path, const std::string& data) {
  return send<StatResult>(session, [&](void* pending) {
    return zoo_aset(session.handle(), path.c_str(), data.data(), static_cast<int>(data.size()), -1, on_stat,
                    pending);
  });
}

std::future<int> send_add_auth(ZkSession& session, const std::string& scheme,
                               const std::string& credentials) {
  return send<int>(session, [&](void* pending) {
    return zoo_add_auth(session.handle(), scheme.c_str(), credentials.data(),
                        static_cast<int>(credentials.size()), on_void, pending);
  });
}

template <typename Result>
Result await(ZkSession& session, std::future<Result>& answer, const char* what, const std::string& path) {
  session.count_wait_for_server();
  if (answer.wait_for(session.command_timeout()) != std::future_status::ready) {
    throw ConnectionError(std::string("ZooKeeper ") + session.hosts() + " did not answer " + what + " " +
                          path + " within " + std::to_string(session.command_timeout().count()) + " ms");
  }
  return answer.get();
}

template CreateResult await(ZkSession&, std::future<CreateResult>&, const char*, const std::string&);
template ChildrenResult await(ZkSession&, std::future<ChildrenResult>&, const char*, const std::string&);
template DataResult await(ZkSession&, std::future<DataResult>&, const char*, const std::string&);
template StatResult await(ZkSession&, std::future<StatResult>&, const char*, const std::string&);
template int await(ZkSession&, std::future<int>&, const char*, const std::string&);

CreateResult create(ZkSession& session, const std::string& path, const std::string& data, int mode) {
  auto answer = send_create(session, path, data, mode);
  return await(session, answer, "create", path);
}

ChildrenResult get_children(ZkSession& session, const std::string& path) {
  auto answer = send_get_children(session, path);
  return await(session, answer, "getChildren", path);
}

DataResult get(ZkSession& session, const std::string& path) {
  auto answer = send_get(session, path);
  return await(session, answer, "getData", path);
}

StatResult exists(ZkSession& session, const std::string& path) {
  auto answer = send_exists(session, path);
  return await(session, answer, "exists", path);
}

int remove(ZkSession& session, const std::string& path) {
  auto answer = send_delete(session, path);
  return await(session, answer, "delete", path);
}

bool outcome_unknown(int rc) {
  return rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT;
}

void raise_for(int rc, const char* what, const std::string& path) {
  const std::string message = std::string("ZooKeeper ") + what + " " + path + ": " + zerror(rc);
  switch (rc) {
    case ZCONNECTIONLOSS:
    case ZOPERATIONTIMEOUT:
    case ZSESSIONEXPIRED:
    case ZSESSIONMOVED:
    case ZCLOSING:
    case ZINVALIDSTATE:
    case ZNOTHING:
      throw ConnectionError(message);
    case ZNOAUTH:
    case ZAUTHFAILED:
      throw AuthError(message);
    case ZBADARGUMENTS:
    case ZINVALIDACL:
    case ZNOCHILDRENFOREPHEMERALS:
      throw InvalidArgument(message);
    default:
      throw ProtocolError(message);
  }
}

}  // namespace zk
}  // namespace dlock
