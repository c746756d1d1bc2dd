#include "backends/redis/election_ops/leader_stream.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>

#include "backends/redis/election_ops/redis_election_ops.hpp"
#include "backends/redis/net/connection.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// How long one XREAD blocks on the server: the node is checked again after
// each (a Sentinel or Cluster failover moves the stream's master).
constexpr int block_ms = 2000;
// How many entries one XREAD takes.
constexpr const char* batch = "100";

// An entry's fields (term, value, since) as a Leader.
Leader parse_entry(const ReplyView& fields, const std::string& what) {
  Leader leader;
  const std::size_t size = fields.array_size(what);
  for (std::size_t i = 0; i + 1 < size; i += 2) {
    const std::string_view field = fields.element(i).text(what);
    const ReplyView value = fields.element(i + 1);
    if (field == "term") leader.term = value.decimal<uint64_t>(what);
    if (field == "since") leader.since_ms = value.decimal<int64_t>(what);
    if (field == "value") leader.value = std::string(value.text(what));
  }
  return leader;
}

bool same_node(const Router::Node& a, const Router::Node& b) {
  return a.address == b.address && a.config.host == b.config.host && a.config.port == b.config.port &&
         a.config.socket_path == b.config.socket_path;
}

}  // namespace

LeaderStream::LeaderStream(std::shared_ptr<Client> client,
                               std::shared_ptr<const ElectionResource> resource, Fn fn)
    : client_(std::move(client)),
      resource_(std::move(resource)),
      fn_(std::move(fn)),
      started_in_(static_cast<int>(getpid())),
      thread_([this] { run(); }) {}

LeaderStream::~LeaderStream() {
  stopping_ = true;
  wake_.signal();
  if (static_cast<int>(getpid()) == started_in_) {
    thread_.join();
  } else {
    thread_.detach();  // fork() copied the handle, not the thread
  }
}

bool LeaderStream::pause(int ms) {
  pollfd wake{wake_.fd(), POLLIN, 0};
  poll(&wake, 1, ms);
  return stopping_;
}

void LeaderStream::deliver(const Leader& leader) {
  if (leader.term < last_term_) return;  // a failed-over server's older history
  last_term_ = leader.term;
  fn_(leader);
}

void LeaderStream::run() {
  const std::string& name = resource_->election_keys.name;
  int backoff_ms = 50;
  while (!stopping_) {
    try {
      std::shared_ptr<ClientCore> core = client_->core();
      if (last_id_.empty()) {
        LeaderSnapshot snapshot = read_leader(*core, resource_->election_keys);
        last_id_ = snapshot.last_id;
        if (snapshot.leader) deliver(*snapshot.leader);
      }
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::milliseconds(core->config().command_timeout_ms);
      const Router::Node node =
          redis_session(*core).router().node_for(resource_->election_keys.leaders, deadline);
      Connection connection(node.config, deadline);
      backoff_ms = 50;
      follow(connection, node);
    } catch (const ClosedError&) {
      return;  // the client was closed: nothing more will come
    } catch (const std::exception& error) {
      if (stopping_) return;
      log::emit(DLOCK_LOG_WARN, "observing the leaders of '" + name + "': " + error.what() +
                                    "; retrying in " + std::to_string(backoff_ms) + " ms");
      if (pause(backoff_ms)) return;
      backoff_ms = std::min(backoff_ms * 2, 1000);
    }
  }
}

void LeaderStream::follow(Connection& connection, const Router::Node& node) {
  const ElectionKeys& keys = resource_->election_keys;
  const std::string what = "observe the leaders of '" + keys.name + "'";
  const std::string block = std::to_string(block_ms);
  const int reply_within_ms = block_ms + static_cast<int>(client_->core()->config().command_timeout_ms);
  connection.set_timeout(std::chrono::milliseconds(reply_within_ms));
  while (!stopping_) {
    connection.append({"XREAD", "COUNT", batch, "BLOCK", block, "STREAMS", keys.leaders, last_id_});
    connection.flush();
    Reply reply(nullptr);
    while (!(reply = connection.next_buffered_reply())) {
      std::array<pollfd, 2> fds{{{connection.fd(), POLLIN, 0}, {wake_.fd(), POLLIN, 0}}};
      if (poll(fds.data(), fds.size(), reply_within_ms) <= 0) {
        throw ConnectionError(what + ": no reply from the server");
      }
      if (stopping_) return;
      connection.read_socket();
    }
    reply.throw_if_error(what);
    if (reply.is_nil()) {
      // Nothing new: is the stream still served where this connection goes?
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(block_ms);
      if (!same_node(redis_session(*client_->core()).router().node_for(keys.leaders, deadline), node)) return;
      continue;
    }
    // [[stream, [[id, [field, value, ...]], ...]]]
    reply.array_size(what);  // each step checks its shape before the next is read
    const ReplyView stream = reply.element(0);
    stream.array_size(what);
    const ReplyView entries = stream.element(1);
    const std::size_t count = entries.array_size(what);
    for (std::size_t i = 0; i < count; ++i) {
      const ReplyView entry = entries.element(i);
      entry.array_size(what);
      last_id_ = std::string(entry.element(0).text(what));
      deliver(parse_entry(entry.element(1), what));
    }
  }
}

}  // namespace dlock
