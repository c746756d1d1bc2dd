// The asynchronous form of every waiting call but the lock's (test_async.cpp):
// semaphore, leased permits, latch, MultiLock, RedLock, and the fair lock and
// both read-write lock sides through dlock_lock_acquire_async. Each is granted
// when what it waits for is let go, runs out, is cancelled, ends when its
// client closes, and refuses bad arguments without calling back; 1,000
// semaphore waits through one client take one thread and all complete.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "async_completion.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_server.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

// A waiting call and what makes it wait: occupy() before start() makes it
// wait, let_go() ends that; close() closes the client it waits on.
class Subject {
 public:
  virtual ~Subject() = default;
  virtual void occupy() = 0;
  virtual void let_go() = 0;
  virtual int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) = 0;
  virtual void close() { client_.reset(); }

 protected:
  ClientHandle client_;  // the waiting call's
  ClientHandle other_;   // the occupier's
};

class SemaphoreSubject final : public Subject {
 public:
  explicit SemaphoreSubject(const std::string& url) {
    client_ = open_client(url);
    other_ = open_client(url);
    semaphore_ = new_semaphore(client_.get(), "aw-semaphore");
    other_semaphore_ = new_semaphore(other_.get(), "aw-semaphore");
  }
  void occupy() override {}  // a semaphore never set has no permits
  void let_go() override { require_ok(dlock_semaphore_release(other_semaphore_.get(), 1), "release"); }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_semaphore_acquire_async(semaphore_.get(), 1, wait_ms, cancel, Completion::on_done, completion);
  }

 private:
  SemaphoreHandle semaphore_;
  SemaphoreHandle other_semaphore_;
};

class PermitSubject final : public Subject {
 public:
  explicit PermitSubject(const std::string& url) {
    client_ = open_client(url);
    other_ = open_client(url);
    semaphore_ = new_permit_semaphore(client_.get(), "aw-permits");
    other_semaphore_ = new_permit_semaphore(other_.get(), "aw-permits");
    int set = 0;
    require_ok(dlock_permit_semaphore_try_set_permits(other_semaphore_.get(), 1, &set), "try_set_permits");
  }
  void occupy() override {
    require_ok(dlock_permit_semaphore_acquire(other_semaphore_.get(), 0, 30000, nullptr, id_, sizeof id_),
               "acquire");
  }
  void let_go() override { require_ok(dlock_permit_semaphore_release(other_semaphore_.get(), id_), "release"); }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_permit_semaphore_acquire_async(semaphore_.get(), wait_ms, 30000, cancel, Completion::on_permit,
                                                completion);
  }
  dlock_permit_semaphore* semaphore() { return semaphore_.get(); }

 private:
  PermitSemaphoreHandle semaphore_;
  PermitSemaphoreHandle other_semaphore_;
  char id_[DLOCK_PERMIT_ID_SIZE] = {};
};

class LatchSubject final : public Subject {
 public:
  explicit LatchSubject(const std::string& url) {
    client_ = open_client(url);
    other_ = open_client(url);
    latch_ = new_latch(client_.get(), "aw-latch");
    other_latch_ = new_latch(other_.get(), "aw-latch");
  }
  void occupy() override {
    int set = 0;
    require_ok(dlock_count_down_latch_try_set_count(other_latch_.get(), 1, &set), "try_set_count");
  }
  void let_go() override { require_ok(dlock_count_down_latch_count_down(other_latch_.get()), "count_down"); }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_count_down_latch_await_async(latch_.get(), wait_ms, cancel, Completion::on_done, completion);
  }

 private:
  LatchHandle latch_;
  LatchHandle other_latch_;
};

// The lock kinds that wait through dlock_lock_acquire_async: `make` opens the
// kind on a client (a fair lock, a read-write lock's side).
class LockKindSubject final : public Subject {
 public:
  using Make = int (*)(dlock_client*, const char*, dlock_lock**);
  LockKindSubject(const std::string& url, Make make_waiter, Make make_holder) {
    client_ = open_client(url);
    other_ = open_client(url);
    lock_ = made(make_waiter, client_.get());
    holder_ = made(make_holder, other_.get());
  }
  void occupy() override { require_ok(dlock_lock_acquire_owner(holder_.get(), 1, 0, 30000, nullptr, nullptr), "hold"); }
  void let_go() override { require_ok(dlock_lock_release_owner(holder_.get(), 1), "release"); }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_lock_acquire_async(lock_.get(), 2, wait_ms, -1, cancel, Completion::on_done, completion);
  }

 private:
  static LockHandle made(Make make, dlock_client* client) {
    dlock_lock* lock = nullptr;
    require_ok(make(client, "aw-lock", &lock), "new lock");
    return LockHandle(lock);
  }

  LockHandle lock_;
  LockHandle holder_;
};

class MultiLockSubject final : public Subject {
 public:
  explicit MultiLockSubject(const std::string& url) {
    client_ = open_client(url);
    other_ = open_client(url);
    members_.push_back(new_lock(client_.get(), "aw-multi-a"));
    members_.push_back(new_lock(client_.get(), "aw-multi-b"));
    dlock_lock* raw[] = {members_[0].get(), members_[1].get()};
    dlock_multilock* multilock = nullptr;
    require_ok(dlock_multilock_new(raw, 2, &multilock), "dlock_multilock_new");
    multilock_.reset(multilock);
    holder_ = new_lock(other_.get(), "aw-multi-b");
  }
  void occupy() override { require_ok(dlock_lock_acquire_owner(holder_.get(), 1, 0, 30000, nullptr, nullptr), "hold"); }
  void let_go() override { require_ok(dlock_lock_release_owner(holder_.get(), 1), "release"); }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_multilock_acquire_async(multilock_.get(), 7, wait_ms, -1, cancel, Completion::on_done, completion);
  }
  dlock_multilock* multilock() { return multilock_.get(); }

 private:
  std::vector<LockHandle> members_;
  LockHandle holder_;
  MultiLockHandle multilock_;
};

// Three servers; the occupier holds the name on two of them (a majority).
class RedLockSubject final : public Subject {
 public:
  RedLockSubject() {
    std::vector<dlock_lock*> raw;
    for (int i = 0; i < 3; ++i) {
      servers_.push_back(std::make_unique<RedisServer>());
      const std::string url = servers_.back()->url() + "?command_timeout_ms=500";
      clients_.push_back(open_client(url));
      others_.push_back(open_client(url));
      members_.push_back(new_lock(clients_.back().get(), "aw-red"));
      holders_.push_back(new_lock(others_.back().get(), "aw-red"));
      raw.push_back(members_.back().get());
    }
    dlock_redlock* redlock = nullptr;
    require_ok(dlock_redlock_new(raw.data(), raw.size(), &redlock), "dlock_redlock_new");
    redlock_.reset(redlock);
  }
  void occupy() override {
    for (int i = 0; i < 2; ++i)
      require_ok(dlock_lock_acquire_owner(holders_[i].get(), 1, 0, 30000, nullptr, nullptr), "hold");
  }
  void let_go() override {
    for (int i = 0; i < 2; ++i) require_ok(dlock_lock_release_owner(holders_[i].get(), 1), "release");
  }
  int start(int64_t wait_ms, dlock_cancel* cancel, Completion* completion) override {
    return dlock_redlock_acquire_async(redlock_.get(), 7, wait_ms, -1, cancel, Completion::on_done, completion);
  }
  void close() override { clients_.clear(); }
  dlock_redlock* redlock() { return redlock_.get(); }

 private:
  std::vector<std::unique_ptr<RedisServer>> servers_;
  std::vector<ClientHandle> clients_;
  std::vector<ClientHandle> others_;
  std::vector<LockHandle> members_;
  std::vector<LockHandle> holders_;
  RedLockHandle redlock_;
};

class AsyncWaits : public RedisFixture {
 protected:
  // Waits while occupied, without blocking the caller, and is granted once let go.
  static Outcome expect_granted_once_let_go(Subject& subject) {
    subject.occupy();
    Completion completion;
    std::future<Outcome> outcome = completion.future();
    const int64_t started = monotonic_ms();
    EXPECT_TRUE(status_is(subject.start(-1, nullptr, &completion), DLOCK_OK));
    EXPECT_LT(monotonic_ms() - started, 200) << "the call blocked";
    EXPECT_EQ(outcome.wait_for(milliseconds(300)), std::future_status::timeout) << "granted while occupied";
    const int64_t let_go_at = monotonic_ms();
    subject.let_go();
    EXPECT_EQ(outcome.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    const Outcome result = outcome.get();
    EXPECT_TRUE(status_is(result.status, DLOCK_OK)) << result.message;
    EXPECT_LT(result.at_ms - let_go_at, 5000) << "woken by a lease, not a message";
    EXPECT_EQ(completion.calls(), 1);
    return result;
  }

  static void expect_runs_out(Subject& subject) {
    subject.occupy();
    Completion completion;
    std::future<Outcome> outcome = completion.future();
    const int64_t started = monotonic_ms();
    ASSERT_TRUE(status_is(subject.start(300, nullptr, &completion), DLOCK_OK));
    const Outcome result = outcome.get();
    EXPECT_TRUE(status_is(result.status, DLOCK_NOT_ACQUIRED)) << result.message;
    EXPECT_GE(result.at_ms - started, 290);
    EXPECT_LT(result.at_ms - started, 3000);
    subject.let_go();
  }

  static void expect_cancel_ends_wait(Subject& subject) {
    subject.occupy();
    const CancelHandle cancel = new_cancel();
    Completion completion;
    std::future<Outcome> outcome = completion.future();
    ASSERT_TRUE(status_is(subject.start(-1, cancel.get(), &completion), DLOCK_OK));
    ASSERT_EQ(outcome.wait_for(milliseconds(300)), std::future_status::timeout);
    const int64_t cancelled_at = monotonic_ms();
    ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
    const Outcome result = outcome.get();
    EXPECT_TRUE(status_is(result.status, DLOCK_E_INTERRUPTED)) << result.message;
    EXPECT_LT(result.at_ms - cancelled_at, 500);
    subject.let_go();
  }

  static void expect_close_ends_wait(Subject& subject) {
    subject.occupy();
    Completion completion;
    std::future<Outcome> outcome = completion.future();
    ASSERT_TRUE(status_is(subject.start(-1, nullptr, &completion), DLOCK_OK));
    ASSERT_EQ(outcome.wait_for(milliseconds(300)), std::future_status::timeout);
    subject.close();
    ASSERT_EQ(outcome.wait_for(milliseconds(0)), std::future_status::ready)
        << "close returned before telling the waiter";
    const Outcome result = outcome.get();
    EXPECT_TRUE(status_is(result.status, DLOCK_E_CLOSED)) << result.message;
    EXPECT_FALSE(result.message.empty());
  }

  // A MultiLock's or a RedLock's async acquire, given a NULL group, no
  // callback, a bad wait or lease: DLOCK_E_INVALID naming it, no callback.
  template <typename Group>
  static void expect_group_refuses_bad_arguments(int (*acquire_async)(Group*, uint64_t, int64_t, int64_t,
                                                                      dlock_cancel*, dlock_done_fn, void*),
                                                 Group* group, const char* name) {
    Completion never;
    EXPECT_TRUE(invalid_naming(acquire_async(nullptr, 1, 0, -1, nullptr, Completion::on_done, &never), name));
    EXPECT_TRUE(invalid_naming(acquire_async(group, 1, 0, -1, nullptr, nullptr, &never), "done"));
    EXPECT_TRUE(invalid_naming(acquire_async(group, 1, -5, -1, nullptr, Completion::on_done, &never), "wait_ms"));
    EXPECT_TRUE(invalid_naming(acquire_async(group, 1, 0, 0, nullptr, Completion::on_done, &never), "lease_ms"));
    std::this_thread::sleep_for(milliseconds(50));
    EXPECT_EQ(never.calls(), 0);
  }
};

// ---- semaphore

TEST_F(AsyncWaits, SemaphoreIsGrantedOnRelease) {
  SemaphoreSubject subject(server().url());
  const Outcome result = expect_granted_once_let_go(subject);
  EXPECT_EQ(result.token, 0u);
  EXPECT_EQ(server().command({"GET", "aw-semaphore"}).str, "0") << "the permit was not taken";
}
TEST_F(AsyncWaits, SemaphoreRunsOut) {
  SemaphoreSubject subject(server().url());
  expect_runs_out(subject);
}
TEST_F(AsyncWaits, SemaphoreCancel) {
  SemaphoreSubject subject(server().url());
  expect_cancel_ends_wait(subject);
  EXPECT_EQ(server().command({"GET", "aw-semaphore"}).str, "1") << "the cancelled wait took the permit";
}
TEST_F(AsyncWaits, SemaphoreClose) {
  SemaphoreSubject subject(server().url());
  expect_close_ends_wait(subject);
}
TEST_F(AsyncWaits, SemaphoreBadArguments) {
  const ClientHandle client = open_client(server().url());
  const SemaphoreHandle semaphore = new_semaphore(client.get(), "aw-bad");
  Completion never;
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire_async(nullptr, 1, 0, nullptr, Completion::on_done, &never),
                             "semaphore"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire_async(semaphore.get(), 1, 0, nullptr, nullptr, &never), "done"));
  EXPECT_TRUE(invalid_naming(
      dlock_semaphore_acquire_async(semaphore.get(), 0, 0, nullptr, Completion::on_done, &never), "permits"));
  EXPECT_TRUE(invalid_naming(
      dlock_semaphore_acquire_async(semaphore.get(), 1, -5, nullptr, Completion::on_done, &never), "wait_ms"));
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(never.calls(), 0);
}

// 1,000 waits through one client use no more threads than one wait does (the
// client's async thread and subscriber, started by the first), and all
// complete once permits come, each attempt on the one thread: no pool stampede.
TEST_F(AsyncWaits, AThousandSemaphoreWaitsShareOneThread) {
  const ClientHandle client = open_client(server().url());
  const ClientHandle other = open_client(server().url());
  const SemaphoreHandle semaphore = new_semaphore(client.get(), "aw-thousand");
  const SemaphoreHandle releaser = new_semaphore(other.get(), "aw-thousand");
  constexpr int waits = 1000;
  std::vector<Completion> completions(waits);
  std::vector<std::future<Outcome>> outcomes;
  auto start_wait = [&](Completion& completion) {
    outcomes.push_back(completion.future());
    return dlock_semaphore_acquire_async(semaphore.get(), 1, -1, nullptr, Completion::on_done, &completion);
  };
  ASSERT_TRUE(status_is(start_wait(completions[0]), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(300));
  const int threads_one = thread_count();
  for (int i = 1; i < waits; ++i) ASSERT_TRUE(status_is(start_wait(completions[i]), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(300));
  const int threads_during = thread_count();
  EXPECT_EQ(threads_during, threads_one) << "the other 999 waits took threads of their own";
  ASSERT_TRUE(status_is(dlock_semaphore_release(releaser.get(), waits), DLOCK_OK));
  int granted = 0;
  for (std::future<Outcome>& outcome : outcomes) {
    ASSERT_EQ(outcome.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    const Outcome result = outcome.get();
    EXPECT_EQ(result.message.find("no pooled connection"), std::string::npos) << result.message;
    granted += result.status == DLOCK_OK;
  }
  EXPECT_EQ(granted, waits);
  EXPECT_EQ(server().command({"GET", "aw-thousand"}).str, "0");
  std::printf("threads during 1 wait %d, during 1000 waits %d\n", threads_one, threads_during);
}

// ---- leased permits

TEST_F(AsyncWaits, PermitIsGrantedOnReleaseWithItsId) {
  PermitSubject subject(server().url());
  const Outcome result = expect_granted_once_let_go(subject);
  ASSERT_EQ(result.permit_id.size(), DLOCK_PERMIT_ID_SIZE - 1u) << result.permit_id;
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(subject.semaphore(), result.permit_id.c_str()), DLOCK_OK));
}
TEST_F(AsyncWaits, PermitRunsOutWithNoId) {
  PermitSubject subject(server().url());
  subject.occupy();
  Completion completion;
  std::future<Outcome> outcome = completion.future();
  ASSERT_TRUE(status_is(subject.start(200, nullptr, &completion), DLOCK_OK));
  const Outcome result = outcome.get();
  EXPECT_TRUE(status_is(result.status, DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(result.permit_id, "");
  subject.let_go();
}
TEST_F(AsyncWaits, PermitCancel) {
  PermitSubject subject(server().url());
  expect_cancel_ends_wait(subject);
}
TEST_F(AsyncWaits, PermitClose) {
  PermitSubject subject(server().url());
  expect_close_ends_wait(subject);
}
TEST_F(AsyncWaits, PermitBadArguments) {
  const ClientHandle client = open_client(server().url());
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), "aw-bad");
  Completion never;
  EXPECT_TRUE(invalid_naming(
      dlock_permit_semaphore_acquire_async(nullptr, 0, -1, nullptr, Completion::on_permit, &never), "semaphore"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_acquire_async(semaphore.get(), 0, -1, nullptr, nullptr, &never),
                             "done"));
  EXPECT_TRUE(invalid_naming(
      dlock_permit_semaphore_acquire_async(semaphore.get(), -5, -1, nullptr, Completion::on_permit, &never), "wait_ms"));
  EXPECT_TRUE(invalid_naming(
      dlock_permit_semaphore_acquire_async(semaphore.get(), 0, 0, nullptr, Completion::on_permit, &never), "lease_ms"));
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(never.calls(), 0);
}

// ---- latch

TEST_F(AsyncWaits, LatchOpensOnCountDown) {
  LatchSubject subject(server().url());
  expect_granted_once_let_go(subject);
}
TEST_F(AsyncWaits, LatchRunsOut) {
  LatchSubject subject(server().url());
  expect_runs_out(subject);
}
TEST_F(AsyncWaits, LatchCancel) {
  LatchSubject subject(server().url());
  expect_cancel_ends_wait(subject);
}
TEST_F(AsyncWaits, LatchClose) {
  LatchSubject subject(server().url());
  expect_close_ends_wait(subject);
}
TEST_F(AsyncWaits, LatchBadArguments) {
  const ClientHandle client = open_client(server().url());
  const LatchHandle latch = new_latch(client.get(), "aw-bad");
  Completion never;
  EXPECT_TRUE(
      invalid_naming(dlock_count_down_latch_await_async(nullptr, 0, nullptr, Completion::on_done, &never), "latch"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_await_async(latch.get(), 0, nullptr, nullptr, &never), "done"));
  EXPECT_TRUE(invalid_naming(
      dlock_count_down_latch_await_async(latch.get(), -5, nullptr, Completion::on_done, &never), "wait_ms"));
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(never.calls(), 0);
}

// ---- MultiLock

TEST_F(AsyncWaits, MultiLockIsGrantedOnTheMembersRelease) {
  MultiLockSubject subject(server().url());
  expect_granted_once_let_go(subject);
  int held = 0;
  ASSERT_TRUE(status_is(dlock_multilock_is_held_owner(subject.multilock(), 7, &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_EQ(server().command({"EXISTS", "aw-multi-a", "aw-multi-b"}).integer, 2);
  EXPECT_TRUE(status_is(dlock_multilock_release_owner(subject.multilock(), 7), DLOCK_OK));
}
TEST_F(AsyncWaits, MultiLockRunsOutHoldingNothing) {
  MultiLockSubject subject(server().url());
  expect_runs_out(subject);
  EXPECT_EQ(server().command({"EXISTS", "aw-multi-a"}).integer, 0);
}
TEST_F(AsyncWaits, MultiLockCancel) {
  MultiLockSubject subject(server().url());
  expect_cancel_ends_wait(subject);
}
TEST_F(AsyncWaits, MultiLockClose) {
  MultiLockSubject subject(server().url());
  expect_close_ends_wait(subject);
}
TEST_F(AsyncWaits, MultiLockBadArguments) {
  MultiLockSubject subject(server().url());
  expect_group_refuses_bad_arguments(dlock_multilock_acquire_async, subject.multilock(), "multilock");
}

// ---- RedLock

TEST_F(AsyncWaits, RedLockIsGrantedOnTheMajoritysRelease) {
  RedLockSubject subject;
  expect_granted_once_let_go(subject);
  int64_t validity = 0;
  ASSERT_TRUE(status_is(dlock_redlock_validity_owner(subject.redlock(), 7, &validity), DLOCK_OK));
  EXPECT_GT(validity, 0);
  EXPECT_TRUE(status_is(dlock_redlock_release_owner(subject.redlock(), 7), DLOCK_OK));
}
TEST_F(AsyncWaits, RedLockRunsOut) {
  RedLockSubject subject;
  expect_runs_out(subject);
}
TEST_F(AsyncWaits, RedLockCancel) {
  RedLockSubject subject;
  expect_cancel_ends_wait(subject);
}
TEST_F(AsyncWaits, RedLockClose) {
  RedLockSubject subject;
  expect_close_ends_wait(subject);
}
TEST_F(AsyncWaits, RedLockBadArguments) {
  RedLockSubject subject;
  expect_group_refuses_bad_arguments(dlock_redlock_acquire_async, subject.redlock(), "redlock");
}

// ---- the lock kinds that already wait through dlock_lock_acquire_async

TEST_F(AsyncWaits, FairLockWaitsWithoutAThread) {
  LockKindSubject subject(server().url(), dlock_fair_lock_new, dlock_fair_lock_new);
  EXPECT_GT(expect_granted_once_let_go(subject).token, 0u);
}
TEST_F(AsyncWaits, WriteSideWaitsForAReader) {
  LockKindSubject subject(server().url(), dlock_rwlock_write_lock, dlock_rwlock_read_lock);
  EXPECT_GT(expect_granted_once_let_go(subject).token, 0u);
}
TEST_F(AsyncWaits, ReadSideWaitsForAWriter) {
  LockKindSubject subject(server().url(), dlock_rwlock_read_lock, dlock_rwlock_write_lock);
  EXPECT_GT(expect_granted_once_let_go(subject).token, 0u);
}

}  // namespace
}  // namespace dlock_test
