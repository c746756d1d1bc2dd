// Every entry point of dlock.h checks its arguments: DLOCK_E_INVALID with a message
// naming the argument, and no crash (SPEC.md section 4, TESTING.md G1).
#include <gtest/gtest.h>

#include <string>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class BadInput : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    client_ = open();
    lock_ = new_lock(client_.get(), "bad-input");
  }

  ClientHandle client_;
  LockHandle lock_;
};

TEST(BadInputWithoutServer, FreeFunctionsAcceptNull) {
  dlock_client_options_init(nullptr);
  dlock_client_close(nullptr);
  dlock_lock_free(nullptr);
  dlock_cancel_free(nullptr);
  EXPECT_EQ(dlock_lock_name(nullptr), nullptr);
  EXPECT_EQ(dlock_client_backend(nullptr), nullptr);
}

TEST(BadInputWithoutServer, CancelEntryPointsRejectNull) {
  EXPECT_TRUE(invalid_naming(dlock_cancel_new(nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_cancel_trigger(nullptr), "cancel"));
  EXPECT_TRUE(invalid_naming(dlock_cancel_reset(nullptr), "cancel"));
}

TEST(BadInputWithoutServer, ClientOpenRejectsNullArguments) {
  dlock_client* client = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_client_open(nullptr, nullptr, &client), "url"));
  EXPECT_EQ(client, nullptr);
  EXPECT_TRUE(invalid_naming(dlock_client_open("redis://127.0.0.1:1", nullptr, nullptr), "out"));
}

TEST(BadInputWithoutServer, ClientOpenRejectsMalformedUrls) {
  for (const char* url :
       {"", "127.0.0.1:6380", "http://127.0.0.1:6380", "redis://", "redis://:6380",
        "redis://127.0.0.1:notaport", "redis://127.0.0.1:0", "redis://127.0.0.1:65536",
        "redis://127.0.0.1:-1", "redis://127.0.0.1:6380/notadb", "redis://127.0.0.1:6380/-1", "unix://",
        "unix://relative.sock", "unix:///tmp/x.sock?db=abc", "redis://127.0.0.1:6380?command_timeout_ms=abc",
        "redis://127.0.0.1:6380?command_timeout_ms=-5", "redis://127.0.0.1:6380?no_such_option=1"}) {
    dlock_client* client = nullptr;
    EXPECT_TRUE(invalid_naming(dlock_client_open(url, nullptr, &client), "url")) << "url: \"" << url << "\"";
    EXPECT_EQ(client, nullptr) << url;
  }
}

TEST(BadInputWithoutServer, ClientOpenRejectsOutOfRangeOptions) {
  struct Case {
    const char* field;
    void (*corrupt)(dlock_client_options&);
  };
  const Case cases[] = {
      {"connect_timeout_ms", [](dlock_client_options& o) { o.connect_timeout_ms = -5; }},
      {"command_timeout_ms", [](dlock_client_options& o) { o.command_timeout_ms = -5; }},
      {"watchdog_timeout_ms", [](dlock_client_options& o) { o.watchdog_timeout_ms = -5; }},
      {"pool_size", [](dlock_client_options& o) { o.pool_size = 0; }},
      {"pool_size", [](dlock_client_options& o) { o.pool_size = -1; }},
  };
  for (const Case& c : cases) {
    dlock_client_options options = default_options();
    c.corrupt(options);
    dlock_client* client = nullptr;
    EXPECT_TRUE(invalid_naming(dlock_client_open("redis://127.0.0.1:1", &options, &client), c.field));
    EXPECT_EQ(client, nullptr);
  }
}

TEST(BadInputWithoutServer, OptionsInitSetsSizeAndDefaults) {
  dlock_client_options options{};
  dlock_client_options_init(&options);
  EXPECT_EQ(options.size, sizeof(dlock_client_options));
  EXPECT_EQ(options.connect_timeout_ms, 2000);
  EXPECT_EQ(options.command_timeout_ms, 3000);
  EXPECT_EQ(options.watchdog_timeout_ms, 30000);
  EXPECT_EQ(options.pool_size, 8);
}

TEST_F(BadInput, LockNewRejectsNullClientNameAndOut) {
  dlock_lock* lock = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_lock_new(nullptr, "x", &lock), "client"));
  EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), nullptr, &lock), "name"));
  EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), "x", nullptr), "out"));
  EXPECT_EQ(lock, nullptr);
}

TEST_F(BadInput, LockNewChecksTheNameLength) {
  dlock_lock* lock = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), "", &lock), "name"));
  const std::string too_long(DLOCK_NAME_MAX + 1, 'n');
  EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), too_long.c_str(), &lock), "name"));
  EXPECT_EQ(lock, nullptr);

  const std::string longest(DLOCK_NAME_MAX, 'n');
  ASSERT_TRUE(status_is(dlock_lock_new(client_.get(), longest.c_str(), &lock), DLOCK_OK));
  const LockHandle handle(lock);
  EXPECT_EQ(dlock_lock_name(lock), longest);
  uint64_t token = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock, 0, 5000, &token), DLOCK_OK));
  EXPECT_TRUE(key_exists(server(), longest));
  EXPECT_TRUE(status_is(dlock_lock_release(lock), DLOCK_OK));
}

// A '{' needs a later '}' with a non-empty tag between, a '}' needs an earlier
// '{' (the derived keys wrap the name in braces), and "{x}" would share its
// counter and channel with "x".
TEST_F(BadInput, LockNewRequiresANonEmptyHashTagAfterABrace) {
  for (const char* name : {"job{", "job{}", "{}", "job}{x", "{", "{x}", "a}b", "}"}) {
    dlock_lock* lock = nullptr;
    EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), name, &lock), "name")) << name;
    EXPECT_EQ(lock, nullptr) << name;
  }
  for (const char* name : {"job{42}", "{x}y", "a{b}}", "{{x}"}) {
    dlock_lock* lock = nullptr;
    EXPECT_TRUE(status_is(dlock_lock_new(client_.get(), name, &lock), DLOCK_OK)) << name;
    dlock_lock_free(lock);
  }
}

TEST_F(BadInput, AcquireRejectsNullLockAndBadTimes) {
  uint64_t token = 0;
  EXPECT_TRUE(invalid_naming(dlock_lock_acquire(nullptr, 0, -1, &token), "lock"));
  for (int64_t wait_ms : {int64_t{-2}, int64_t{-1000}, INT64_MIN}) {
    EXPECT_TRUE(invalid_naming(dlock_lock_acquire(lock_.get(), wait_ms, -1, &token), "wait_ms")) << wait_ms;
  }
  for (int64_t lease_ms : {int64_t{0}, int64_t{-2}, INT64_MIN}) {
    EXPECT_TRUE(invalid_naming(dlock_lock_acquire(lock_.get(), 0, lease_ms, &token), "lease_ms")) << lease_ms;
  }
  EXPECT_FALSE(key_exists(server(), "bad-input")) << "an invalid acquire touched Redis";
}

TEST_F(BadInput, AcquireOwnerRejectsNullLockAndBadTimes) {
  uint64_t token = 0;
  EXPECT_TRUE(invalid_naming(dlock_lock_acquire_owner(nullptr, 1, 0, -1, nullptr, &token), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_acquire_owner(lock_.get(), 1, -2, -1, nullptr, &token), "wait_ms"));
  EXPECT_TRUE(invalid_naming(dlock_lock_acquire_owner(lock_.get(), 1, 0, 0, nullptr, &token), "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_lock_acquire_owner(lock_.get(), 1, 0, -7, nullptr, &token), "lease_ms"));
  EXPECT_FALSE(key_exists(server(), "bad-input"));
}

TEST_F(BadInput, AcquireAcceptsNullTokenOut) {
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock_.get(), 0, 5000, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(lock_.get()), DLOCK_OK));
}

TEST_F(BadInput, ReleaseAndForceReleaseRejectNullLock) {
  EXPECT_TRUE(invalid_naming(dlock_lock_release(nullptr), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_release_owner(nullptr, 1), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_force_release(nullptr), "lock"));
  int released = 0;
  EXPECT_TRUE(invalid_naming(dlock_lock_force_release_checked(nullptr, &released), "lock"));
}

TEST_F(BadInput, QueriesRejectNullLockAndNullOut) {
  int flag = 0;
  int64_t ms = 0;
  uint64_t token = 0;
  dlock_lock* lock = lock_.get();
  EXPECT_TRUE(invalid_naming(dlock_lock_is_locked(nullptr, &flag), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_is_locked(lock, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_is_held(nullptr, &flag), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_is_held(lock, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_is_held_owner(nullptr, 1, &flag), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_is_held_owner(lock, 1, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_hold_count(nullptr, &flag), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_hold_count(lock, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_hold_count_owner(nullptr, 1, &flag), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_hold_count_owner(lock, 1, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_fencing_token(nullptr, &token), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_fencing_token(lock, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_fencing_token_owner(nullptr, 1, &token), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_fencing_token_owner(lock, 1, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_ttl(nullptr, &ms), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_ttl(lock, nullptr), "out"));
}

TEST_F(BadInput, LostCallbackRejectsNullLockAndAcceptsClearing) {
  LostRecorder recorder;
  EXPECT_TRUE(invalid_naming(recorder.attach(nullptr), "lock"));
  EXPECT_TRUE(status_is(recorder.attach(lock_.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_set_lost_callback(lock_.get(), nullptr, nullptr), DLOCK_OK));
}

TEST_F(BadInput, DoubleReleaseIsNotOwnerAndTouchesNothing) {
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock_.get(), 0, 5000, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(lock_.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(lock_.get()), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), 77), DLOCK_E_NOT_OWNER));
  EXPECT_FALSE(key_exists(server(), "bad-input"));
}

TEST_F(BadInput, WrongTypeKeyIsProtocolErrorAndLeftUntouched) {
  ASSERT_EQ(server().command({"SET", "bad-input", "not a lock"}).str, "OK");
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock_.get(), 2000, 5000, nullptr), DLOCK_E_PROTOCOL));
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock_.get(), -1, -1, nullptr), DLOCK_E_PROTOCOL));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(1500))
      << "a wrong-type key is an error, not a holder to wait for";
  EXPECT_EQ(server().command({"TYPE", "bad-input"}).str, "string");
  EXPECT_EQ(string_value(server(), "bad-input"), "not a lock");
  EXPECT_EQ(pttl(server(), "bad-input"), -1);
  EXPECT_TRUE(status_is(dlock_lock_release(lock_.get()), DLOCK_E_NOT_OWNER));
  EXPECT_EQ(string_value(server(), "bad-input"), "not a lock");
}

// Users whose ACL refuses one command a script needs. Such an acquire used to
// write the lock's hash first and then fail, leaving a lock with no expiry (or
// one held for the lease) that no owner had been told about.
class BadInputUnderAcl : public RedisFixture {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {
        "user no-time on >pw ~* &* +@all -time",         "user no-get on >pw ~* &* +@all -get",
        "user no-incrby on >pw ~* &* +@all -incrby",     "user no-pexpire on >pw ~* &* +@all -pexpire",
        "user no-channel on >pw ~* resetchannels +@all",
    };
    return config;
  }
  ClientHandle open_as(const std::string& user) {
    return open_client("redis://" + user + ":pw@127.0.0.1:" + std::to_string(server().port()));
  }
};

TEST_F(BadInputUnderAcl, AcquireRefusedACommandIsAnAuthErrorAndLeavesNoLock) {
  // What the acquire script sends, in order, before the lock exists (TIME, the
  // counter's GET and INCRBY), and the one write after the hash (PEXPIRE).
  for (const std::string user : {"no-time", "no-get", "no-incrby", "no-pexpire"}) {
    const std::string name = "acl-" + user;
    const ClientHandle client = open_as(user);
    const LockHandle lock = new_lock(client.get(), name);
    EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_E_AUTH)) << user;
    EXPECT_NE(std::string(dlock_last_error()).find("acquire"), std::string::npos) << dlock_last_error();
    EXPECT_FALSE(key_exists(server(), name)) << user << " left the lock behind";

    const ClientHandle privileged = open();
    const LockHandle same = new_lock(privileged.get(), name.c_str());
    EXPECT_TRUE(status_is(dlock_lock_acquire(same.get(), 0, 5000, nullptr), DLOCK_OK)) << user;
    EXPECT_TRUE(status_is(dlock_lock_release(same.get()), DLOCK_OK));
  }
}

TEST_F(BadInputUnderAcl, ReleaseWithoutTheChannelIsAnAuthErrorAndDeletesNothing) {
  const ClientHandle client = open_as("no-channel");
  const LockHandle lock = new_lock(client.get(), "acl-no-channel");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_AUTH));
  EXPECT_EQ(hash_fields(server(), "acl-no-channel").size(), 1u)
      << "a lock deleted without its wake-up leaves waiters asleep until their timers run out";
}

}  // namespace
}  // namespace dlock_test
