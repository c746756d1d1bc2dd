#include "native_log.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>

#include "dlock.h"
#include "status.hpp"

namespace py = pybind11;

namespace dlock_python {
namespace {

// Beyond this many records waiting for Python, new ones are counted and
// dropped: a stalled interpreter must not make the core's threads allocate
// without bound.
constexpr std::size_t max_queued = 10000;

class LogQueue {
 public:
  LogQueue() { open_pipe(); }

  // The dlock_log_fn; never blocks (the pipe is non-blocking, and a full pipe
  // already holds a wake-up).
  static void handle(int level, const char* message, void* self) {
    auto* queue = static_cast<LogQueue*>(self);
    {
      std::lock_guard<std::mutex> lock(queue->mutex_);
      if (queue->records_.size() >= max_queued) {
        ++queue->dropped_;
        return;
      }
      try {
        queue->records_.emplace_back(level, message);
      } catch (...) {
        ++queue->dropped_;
        return;
      }
    }
    const char byte = 1;
    [[maybe_unused]] ssize_t written = write(queue->pipe_[1], &byte, 1);
  }

  // The records queued so far (and a note of any dropped), oldest first.
  std::deque<std::pair<int, std::string>> take() {
    std::deque<std::pair<int, std::string>> taken;
    std::size_t dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      taken.swap(records_);
      dropped = dropped_;
      dropped_ = 0;
    }
    if (dropped > 0) {
      taken.emplace_front(DLOCK_LOG_WARN, std::to_string(dropped) +
                                              " log records dropped: Python did not take them "
                                              "in time");
    }
    return taken;
  }

  int wakeup_fd() const { return pipe_[0]; }

  // fork(): the child gets a pipe of its own (its drain thread is a new one,
  // started by dlock/log.py), and the mutex is never copied held.
  void before_fork() { mutex_.lock(); }
  void after_fork_in_parent() { mutex_.unlock(); }
  void after_fork_in_child() {
    mutex_.unlock();
    close(pipe_[0]);
    close(pipe_[1]);
    open_pipe();
  }

 private:
  void open_pipe() {
    if (pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) != 0) {
      throw std::system_error(errno, std::generic_category(), "dlock log wake-up pipe");
    }
    // The reading end blocks: the drain thread sleeps in os.read().
    fcntl(pipe_[0], F_SETFL, fcntl(pipe_[0], F_GETFL) & ~O_NONBLOCK);
  }

  std::mutex mutex_;
  std::deque<std::pair<int, std::string>> records_;
  std::size_t dropped_ = 0;
  int pipe_[2] = {-1, -1};
};

// Never destroyed: the core's threads may log until the process ends.
LogQueue& queue() {
  static LogQueue* const instance = [] {
    auto* created = new LogQueue();
    pthread_atfork([] { queue().before_fork(); }, [] { queue().after_fork_in_parent(); },
                   [] { queue().after_fork_in_child(); });
    return created;
  }();
  return *instance;
}

}  // namespace

void bind_native_log(py::module_& module) {
  module.attr("LOG_ERROR") = DLOCK_LOG_ERROR;
  module.attr("LOG_WARN") = DLOCK_LOG_WARN;
  module.attr("LOG_INFO") = DLOCK_LOG_INFO;
  module.attr("LOG_DEBUG") = DLOCK_LOG_DEBUG;
  // Every level is queued; the "dlock" logger's level decides what is kept.
  module.def("install_log_queue",
             [] { check_status(dlock_set_log_handler(&LogQueue::handle, &queue(), DLOCK_LOG_DEBUG)); });
  module.def("log_wakeup_fd", [] { return queue().wakeup_fd(); });
  module.def("take_log_records", [] {
    py::list records;
    for (auto& [level, message] : queue().take()) {
      // Lock names are bytes to the core: undecodable ones are shown, not raised.
      PyObject* text =
          PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "replace");
      if (text == nullptr) throw py::error_already_set();
      records.append(py::make_tuple(level, py::reinterpret_steal<py::str>(text)));
    }
    return records;
  });
}

}  // namespace dlock_python
