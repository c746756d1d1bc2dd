#include "core/client.hpp"

#include <pthread.h>

#include <mutex>
#include <utility>
#include <vector>

namespace dlock {
namespace {

std::atomic<unsigned> fork_generation{0};

void count_fork_in_child() {
  fork_generation.fetch_add(1);
}

unsigned current_fork_generation() {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, count_fork_in_child); });
  return fork_generation.load();
}

// Cores inherited from a parent process are kept, never destroyed: their
// destructors would join threads and take mutexes that exist only in the
// parent.
void keep_forever(std::shared_ptr<ClientCore> core) {
  static auto* inherited = new std::vector<std::shared_ptr<ClientCore>>();
  inherited->push_back(std::move(core));
}

}  // namespace

Client::Client(const ClientConfig& config, SessionFactory open_session)
    : config_(config),
      open_session_(std::move(open_session)),
      current_(std::make_shared<Incarnation>(
          Incarnation{current_fork_generation(), std::make_shared<ClientCore>(config_, open_session_)})) {
  current_->core->ping();
}

Client::~Client() {
  close();
}

std::shared_ptr<ClientCore> Client::core() {
  if (closed_.load()) throw ClosedError("the client is closed");
  std::shared_ptr<Incarnation> seen = std::atomic_load(&current_);
  const unsigned generation = current_fork_generation();
  while (seen->fork_generation != generation) {
    auto fresh = std::make_shared<Incarnation>(
        Incarnation{generation, std::make_shared<ClientCore>(config_, open_session_, true)});
    std::shared_ptr<Incarnation> replaced = seen;
    if (std::atomic_compare_exchange_strong(&current_, &seen, fresh)) {
      keep_forever(replaced->core);
      return fresh->core;
    }
  }
  return seen->core;
}

void Client::close() {
  if (closed_.exchange(true)) return;
  std::shared_ptr<Incarnation> last = std::atomic_load(&current_);
  if (last->fork_generation == current_fork_generation()) {
    last->core->close();
  } else {
    keep_forever(last->core);
  }
}

}  // namespace dlock
