#include "group_loop.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) parts.push_back(part);
  return parts;
}

// What the threads share: the clients, the member handles and, per guarded
// name, a section log and a store.
struct Shared {
  const WorkerOptions& options;
  std::vector<dlock_test::ClientHandle> clients;
  std::vector<dlock_test::LockHandle> members;
  std::vector<std::string> guarded;  // names whose logs and stores a section writes
  std::vector<std::unique_ptr<dlock_test::SectionLog>> logs;
  std::vector<dlock_test::FencedStore> stores;
  WorkerFailures failures;
};

void fail(Shared& shared, const std::string& message) {
  shared.failures.fail(message);
}

std::vector<dlock_lock*> raw(const std::vector<dlock_test::LockHandle>& handles) {
  std::vector<dlock_lock*> result;
  for (const auto& handle : handles) result.push_back(handle.get());
  return result;
}

// One acquire / release interface over both kinds.
struct Group {
  dlock_multilock* multi = nullptr;
  dlock_redlock* red = nullptr;
  ~Group() {
    dlock_multilock_free(multi);
    dlock_redlock_free(red);
  }
  int acquire(int64_t wait_ms, int64_t lease_ms) {
    return multi != nullptr ? dlock_multilock_acquire(multi, wait_ms, lease_ms)
                            : dlock_redlock_acquire(red, wait_ms, lease_ms, nullptr);
  }
  int release() { return multi != nullptr ? dlock_multilock_release(multi) : dlock_redlock_release(red); }
};

void run_thread(Shared& shared, int index) {
  const WorkerOptions& options = shared.options;
  const std::vector<dlock_lock*> members = raw(shared.members);
  Group group;
  const int made = options.mode == Mode::multilock
                       ? dlock_multilock_new(members.data(), members.size(), &group.multi)
                       : dlock_redlock_new(members.data(), members.size(), &group.red);
  if (made != DLOCK_OK) return fail(shared, "new: " + describe_status(made));
  const std::string owner = std::to_string(getpid()) + "." + std::to_string(index);
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);

  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    const int acquired =
        acquire_through_faults(options, [&] { return group.acquire(options.wait_ms, options.lease_ms); });
    if (acquired == DLOCK_NOT_ACQUIRED) {
      // All or nothing: a wait that ran out leaves no member held.
      for (dlock_lock* member : members) {
        int count = -1;
        dlock_lock_hold_count(member, &count);
        if (count != 0)
          return fail(shared, std::string("a failed acquire left '") + dlock_lock_name(member) + "' held");
      }
      std::printf("not_acquired\n");
      continue;
    }
    if (acquired != DLOCK_OK) return fail(shared, "acquire: " + describe_status(acquired));
    std::vector<dlock_test::Section> sections(shared.guarded.size());
    std::vector<long long> values;
    const int64_t start = dlock_test::monotonic_ns();
    announce_section(options, cycle);
    for (const dlock_test::FencedStore& store : shared.stores) values.push_back(store.read());
    std::this_thread::sleep_for(std::chrono::microseconds(section_us(random)));
    for (size_t i = 0; i < shared.stores.size(); ++i) {
      sections[i].write_accepted = shared.stores[i].write(0, values[i] + 1);
    }
    const int64_t end = dlock_test::monotonic_ns();
    const int released = group.release();
    for (size_t i = 0; i < sections.size(); ++i) {
      sections[i].owner = owner;
      sections[i].start_ns = start;
      sections[i].end_ns = end;
      sections[i].release_status = released;
      shared.logs[i]->append(sections[i]);
    }
    if (released != DLOCK_OK && !options.tolerate_errors)
      return fail(shared, "release: " + describe_status(released));
  }
}

}  // namespace

int run_group_loop(const WorkerOptions& options) {
  Shared shared{options, {}, {}, {}, {}, {}, {}};
  if (options.mode == Mode::multilock) {
    shared.clients.push_back(dlock_test::open_client(options.url, client_options(options)));
    for (const std::string& name : split(options.name, ',')) {
      shared.members.push_back(dlock_test::new_lock(shared.clients[0].get(), name));
      shared.guarded.push_back(name);
    }
  } else {
    for (const std::string& url : split(options.urls, ';')) {
      shared.clients.push_back(dlock_test::open_client(url, client_options(options)));
      shared.members.push_back(dlock_test::new_lock(shared.clients.back().get(), options.name));
    }
    shared.guarded.push_back(options.name);
  }
  for (const std::string& name : shared.guarded) {
    shared.logs.push_back(std::make_unique<dlock_test::SectionLog>(options.log_path + "." + name));
    shared.stores.emplace_back(options.store_path + "." + name);
  }
  run_threads(options.threads, [&shared](int index) { run_thread(shared, index); }, shared.failures);
  return shared.failures.exit_code();
}

}  // namespace dlock_worker
