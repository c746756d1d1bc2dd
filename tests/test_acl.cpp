// docs/acl.md, measured: a Redis user with exactly the documented permissions
// can use every lock operation; without any one of the required ones some call
// fails with DLOCK_E_AUTH, so the list is both sufficient and minimal. Without
// SUBSCRIBE/UNSUBSCRIBE locks still work: waiters retry instead of being woken.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "dlock.h"
#include "redis_fixture.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kUser = "dlockuser";
const char* const kPassword = "dlockuser-pw";
const char* const kName = "orders:42";  // covered by the application's pattern ~orders:*
constexpr int64_t kWatchdogMs = 600;    // renewed every 200 ms

// docs/acl.md's permissions, with ~orders:* standing for the application's lock names.
const std::vector<std::string> kRequired = {"+ping",
                                            "+evalsha",
                                            "+eval",
                                            "+script|load",
                                            "+exists",
                                            "+pttl",
                                            "+hset",
                                            "+hexists",
                                            "+pexpire",
                                            "+incrby",
                                            "+time",
                                            "+get",
                                            "+set",
                                            "+del",
                                            "+type",
                                            "+publish",
                                            "+zrange",
                                            "+zrem",
                                            "+zrangebyscore",
                                            "~orders:*",
                                            "~redisson_lock_token:*",
                                            "~redisson_unlock_latch:*",
                                            "~dlock_grant:*",
                                            "~dlock_turn:*",
                                            "~dlock_waiting:*",
                                            "~redisson_lock__channel:*",
                                            "&redisson_lock__channel:*"};
// Waiting without these still works: by retrying at the holder's lease end
// without the subscription; without a turn for woken waiters without +zadd;
// without the waiters' heartbeat (+zscore), whose entries then lapse.
const std::vector<std::string> kWakeUps = {"+subscribe", "+unsubscribe", "+zadd", "+zscore"};

// A call that did not succeed: which step, its status and dlock_last_error().
struct Failure {
  std::string step;
  int status;
  std::string message;
};

std::string describe(const std::vector<Failure>& failures) {
  std::string text;
  for (const Failure& failure : failures) {
    text += "\n  " + failure.step + ": " + dlock_strerror(failure.status) + ": " + failure.message;
  }
  return text;
}

bool has_auth_error(const std::vector<Failure>& failures) {
  for (const Failure& failure : failures) {
    if (failure.status == DLOCK_E_AUTH) return true;
  }
  return false;
}

std::vector<std::string> without(std::vector<std::string> permissions, const std::string& removed) {
  permissions.erase(std::remove(permissions.begin(), permissions.end(), removed), permissions.end());
  return permissions;
}

std::vector<std::string> joined(std::vector<std::string> first, const std::vector<std::string>& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

class Acl : public RedisFixture {
 protected:
  // ACL SETUSER dlockuser on >pw resetkeys resetchannels -@all <permissions>
  void set_user(const std::vector<std::string>& permissions) {
    std::vector<std::string> argv = {"ACL",       "SETUSER",       kUser,  "on", std::string(">") + kPassword,
                                     "resetkeys", "resetchannels", "-@all"};
    argv.insert(argv.end(), permissions.begin(), permissions.end());
    server().command(argv);
  }

  // Whether the server saw `command` at all, allowed or refused (INFO commandstats).
  bool saw(const std::string& command) {
    return server().command({"INFO", "commandstats"}).str.find("cmdstat_" + command + ":") !=
           std::string::npos;
  }

  // As the user: acquire with a watchdog lease and re-enter; a second owner
  // waits (subscribing to the channel) while the scripts are flushed (so the
  // EVAL fallback runs) and the watchdog renews; the release hands the lock
  // to the waiter; then is_locked, ttl and force release. Every failing call.
  std::vector<Failure> run_every_operation() {
    std::vector<Failure> failures;
    const auto check = [&](const char* step, int status) {
      if (status != DLOCK_OK) failures.push_back({step, status, dlock_last_error()});
      return status == DLOCK_OK;
    };
    const std::string url =
        std::string("redis://") + kUser + ":" + kPassword + "@127.0.0.1:" + std::to_string(server().port());
    const dlock_client_options options = options_with_watchdog(kWatchdogMs);
    dlock_client* opened = nullptr;
    if (!check("open", dlock_client_open(url.c_str(), &options, &opened))) return failures;
    const ClientHandle client(opened);
    const LockHandle lock = new_lock(client.get(), kName);

    if (!check("acquire", dlock_lock_acquire_owner(lock.get(), 1, 0, -1, nullptr, nullptr))) return failures;
    check("re-enter", dlock_lock_acquire_owner(lock.get(), 1, 0, -1, nullptr, nullptr));
    auto waiter = acquire_in_background(lock.get(), 2, 10000);
    server().command({"SCRIPT", "FLUSH"});
    std::this_thread::sleep_for(milliseconds(3 * kWatchdogMs));  // outlives the lease unless renewed
    int held = 0;
    check("is_held after renewals", dlock_lock_is_held_owner(lock.get(), 1, &held));
    if (held != 1) failures.push_back({"watchdog renewal", DLOCK_E_LOST, "the lease ran out"});
    check("release inner", dlock_lock_release_owner(lock.get(), 1));
    check("release outer", dlock_lock_release_owner(lock.get(), 1));
    const AcquireOutcome woken = waiter.get();
    check("waiter acquire", woken.status);
    check("waiter release", woken.release_status);

    check("acquire with lease", dlock_lock_acquire_owner(lock.get(), 3, 0, 10000, nullptr, nullptr));
    int locked = 0;
    check("is_locked", dlock_lock_is_locked(lock.get(), &locked));
    if (locked != 1) failures.push_back({"is_locked", DLOCK_E_PROTOCOL, "not locked while held"});
    int64_t ttl = 0;
    check("ttl", dlock_lock_ttl(lock.get(), &ttl));
    if (ttl <= 0 || ttl > 10000) failures.push_back({"ttl", DLOCK_E_PROTOCOL, std::to_string(ttl)});
    check("force release", dlock_lock_force_release(lock.get()));
    check("is_locked after force release", dlock_lock_is_locked(lock.get(), &locked));
    if (locked != 0) failures.push_back({"force release", DLOCK_E_PROTOCOL, "still locked"});
    return failures;
  }
};

TEST_F(Acl, TheDocumentedPermissionsAllowEveryLockOperation) {
  set_user(joined(kRequired, kWakeUps));
  const std::vector<Failure> failures = run_every_operation();
  EXPECT_TRUE(failures.empty()) << describe(failures);
  EXPECT_TRUE(saw("subscribe")) << "the waiter did not subscribe";
  EXPECT_TRUE(saw("eval")) << "the EVAL fallback did not run";
}

TEST_F(Acl, WithoutSubscribeOrZaddWaitersStillAcquire) {
  set_user(kRequired);
  const std::vector<Failure> failures = run_every_operation();
  EXPECT_TRUE(failures.empty()) << describe(failures);
}

class AclWithoutOne : public Acl, public ::testing::WithParamInterface<std::string> {};

TEST_P(AclWithoutOne, SomeCallFailsWithAnAuthError) {
  set_user(joined(without(kRequired, GetParam()), kWakeUps));
  const std::vector<Failure> failures = run_every_operation();
  if (GetParam() == "+script|load" && !saw("script|load")) {
    // A process loads each script once; ctest runs every case in its own process.
    GTEST_SKIP() << "this process loaded the scripts before; run this case alone";
  }
  EXPECT_TRUE(has_auth_error(failures)) << "without " << GetParam() << ":" << describe(failures);
}

// "+script|load" -> "command_script_load", "~orders:*" -> "keys_orders_", "&..." -> "channels_...".
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  const char kind = info.param.front();
  std::string name = kind == '+' ? "command_" : kind == '~' ? "keys_" : "channels_";
  for (const char c : info.param.substr(1)) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      name += c;
    } else if (c != '*') {
      name += '_';
    }
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EachRequiredPermission, AclWithoutOne, ::testing::ValuesIn(kRequired), test_name);

}  // namespace
}  // namespace dlock_test
