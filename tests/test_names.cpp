// A11: lock names and the keys derived from them, as a seeded property test
// against a cluster-mode redis-server that serves every slot itself, so the
// server's CLUSTER KEYSLOT judges the slot rule and a script touching keys of
// different slots fails with CROSSSLOT.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dlock.h"
#include "hash_tag.hpp"
#include "printable_bytes.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

constexpr unsigned kSeed = 20240611;
constexpr int kRandomNames = 2500;

// Names built from pieces that exercise the hash-tag rule, multi-byte UTF-8 and
// arbitrary bytes (never NUL: the C ABI takes NUL-terminated names).
class NameGenerator {
 public:
  explicit NameGenerator(unsigned seed) : random_(seed) {}

  std::string next() {
    std::string name;
    const int pieces = pick(1, 8);
    for (int i = 0; i < pieces; ++i) name += piece();
    if (pick(0, 30) == 0) name = long_name(name);
    return name;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }

  std::string piece() {
    static const std::vector<std::string> pieces = {"{",
                                                    "}",
                                                    "{}",
                                                    "{x}",
                                                    "}{",
                                                    "a",
                                                    "b",
                                                    "job",
                                                    ":",
                                                    "-",
                                                    "42",
                                                    "\xc3\xa9",
                                                    "\xe9\x94\x81",
                                                    "\xf0\x9f\x94\x92",
                                                    " ",
                                                    "*",
                                                    "redisson_lock_token"};
    if (pick(0, 9) == 0) return std::string(1, static_cast<char>(pick(1, 255)));
    return pieces[static_cast<size_t>(pick(0, static_cast<int>(pieces.size()) - 1))];
  }

  // A name around DLOCK_NAME_MAX bytes with `core` somewhere inside it.
  std::string long_name(const std::string& core) {
    const int length = pick(DLOCK_NAME_MAX - 3, DLOCK_NAME_MAX + 3);
    std::string name(static_cast<size_t>(std::max<int>(0, length - static_cast<int>(core.size()))), 'n');
    name.insert(static_cast<size_t>(pick(0, static_cast<int>(name.size()))), core);
    return name;
  }

  std::mt19937 random_;
};

// Names that a few thousand random ones might miss.
std::vector<std::string> chosen_names() {
  return {"x",
          "{x}",
          "x{",
          "x}",
          "{x",
          "}x",
          "{}",
          "{}x",
          "x{}",
          "{}{x}",
          "{{x}}",
          "{x}{y}",
          "a{b}c",
          "a}b{c}",
          "job{42",
          "job}",
          "}",
          "{",
          "\xff\xfe",
          "a b",
          "job{\xe9\x94\x81}",
          std::string(DLOCK_NAME_MAX, 'n'),
          std::string(DLOCK_NAME_MAX + 1, 'n'),
          "{t}" + std::string(DLOCK_NAME_MAX - 3, 'n')};
}

std::vector<std::string> all_names() {
  std::vector<std::string> names = chosen_names();
  NameGenerator generator(kSeed);
  for (int i = 0; i < kRandomNames; ++i) names.push_back(generator.next());
  return names;
}

std::string printable(const std::string& name) {
  return printable_bytes(name, 60);
}

// Collects the first few counterexamples of a property.
class Counterexamples {
 public:
  void add(const std::string& what) {
    if (++count_ <= 8) text_ += "\n  " + what;
  }
  int count() const { return count_; }
  std::string text() const { return text_; }

 private:
  int count_ = 0;
  std::string text_;
};

class Names : public RedisFixture {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {"cluster-enabled yes", "cluster-config-file nodes.conf"};
    return config;
  }

  void SetUp() override {
    RedisFixture::SetUp();
    const RedisReply added = server().command({"CLUSTER", "ADDSLOTSRANGE", "0", "16383"});
    ASSERT_FALSE(added.is_error()) << added.str;
    ASSERT_TRUE(wait_until(
        [&] {
          return server().command({"CLUSTER", "INFO"}).str.find("cluster_state:ok") != std::string::npos;
        },
        milliseconds(10000)))
        << "the one-node cluster never came up";
    client_ = open();
  }

  long long slot(const std::string& key) {
    const RedisReply reply = server().command({"CLUSTER", "KEYSLOT", key});
    if (reply.is_error()) throw std::runtime_error("CLUSTER KEYSLOT: " + reply.str);
    return reply.integer;
  }

  // The rule of the C ABI: a name is usable when its length fits, every key
  // of the lock (in the layout of SPEC.md) lies in the name's own slot, and no
  // other name has its keys: "{x}" (only a hash tag) has the counter and the
  // channel of "x".
  bool name_allowed(const std::string& name) {
    if (name.empty() || name.size() > DLOCK_NAME_MAX) return false;
    const long long own = slot(name);
    return slot(fencing_counter_key(name)) == own && slot(release_channel(name)) == own &&
           !is_only_a_hash_tag(name);
  }

  ClientHandle client_;
};

TEST_F(Names, TheModelOfTheHashTagAgreesWithTheServer) {
  Counterexamples wrong;
  for (const std::string& name : all_names()) {
    for (const std::string& key : {name, fencing_counter_key(name), release_channel(name)}) {
      if (slot(key) != slot(hash_tag(key))) wrong.add(printable(key));
    }
  }
  EXPECT_EQ(wrong.count(), 0) << "hash_tag() is not how the server picks slots:" << wrong.text();
}

TEST_F(Names, AcceptedExactlyWhenTheLengthAndSlotRulesHold) {
  Counterexamples wrong;
  for (const std::string& name : all_names()) {
    dlock_lock* raw = nullptr;
    const int status = dlock_lock_new(client_.get(), name.c_str(), &raw);
    const LockHandle lock(raw);
    const bool allowed = name_allowed(name);
    if ((status == DLOCK_OK) != allowed) {
      wrong.add(printable(name) + (allowed ? " rejected: " + describe_status(status)
                                           : " accepted, but its keys are not all in its slot"));
    } else if (status != DLOCK_OK && status != DLOCK_E_INVALID) {
      wrong.add(printable(name) + " rejected with " + describe_status(status));
    }
  }
  EXPECT_EQ(wrong.count(), 0) << wrong.count() << " names:" << wrong.text();
}

TEST_F(Names, EveryAcceptedNameLocksAndUnlocks) {
  Counterexamples wrong;
  int exercised = 0;
  for (const std::string& name : all_names()) {
    dlock_lock* raw = nullptr;
    if (dlock_lock_new(client_.get(), name.c_str(), &raw) != DLOCK_OK) continue;
    const LockHandle lock(raw);
    ++exercised;
    uint64_t token = 0;
    const int acquired = dlock_lock_acquire(lock.get(), 0, 10000, &token);
    if (acquired != DLOCK_OK) {
      wrong.add(printable(name) + " acquire: " + describe_status(acquired));
      continue;
    }
    if (hash_fields(server(), name).size() != 1)
      wrong.add(printable(name) + " held, but its key has no field");
    if (string_value(server(), fencing_counter_key(name)) != std::to_string(token)) {
      wrong.add(printable(name) + " token " + std::to_string(token) + " is not in its counter key");
    }
    const int released = dlock_lock_release(lock.get());
    if (released != DLOCK_OK) wrong.add(printable(name) + " release: " + describe_status(released));
    if (key_exists(server(), name)) wrong.add(printable(name) + " key left after release");
  }
  EXPECT_GT(exercised, kRandomNames / 4) << "the generator made too few usable names";
  EXPECT_EQ(wrong.count(), 0) << wrong.count() << " names:" << wrong.text();
}

TEST_F(Names, DistinctNamesHaveDistinctKeys) {
  std::map<std::string, std::string> owner_of_key;  // every derived key -> the name it came from
  Counterexamples shared;
  const std::vector<std::string> names = all_names();
  for (const std::string& name : std::set<std::string>(names.begin(), names.end())) {
    dlock_lock* raw = nullptr;
    if (dlock_lock_new(client_.get(), name.c_str(), &raw) != DLOCK_OK) continue;
    const LockHandle lock(raw);
    const std::vector<std::pair<const char*, std::string>> keys = {
        {"lock key", name}, {"counter", fencing_counter_key(name)}, {"channel", release_channel(name)}};
    for (const auto& [kind, key] : keys) {
      const auto [at, inserted] = owner_of_key.emplace(std::string(kind) + " " + key, name);
      if (!inserted)
        shared.add(std::string(kind) + " " + printable(key) + " of " + printable(name) + " and " +
                   printable(at->second));
    }
  }
  EXPECT_EQ(shared.count(), 0) << "distinct names share keys:" << shared.text();
}

TEST_F(Names, LengthLimitIsExact) {
  dlock_lock* raw = nullptr;
  ASSERT_TRUE(
      status_is(dlock_lock_new(client_.get(), std::string(DLOCK_NAME_MAX, 'n').c_str(), &raw), DLOCK_OK));
  dlock_lock_free(raw);
  raw = nullptr;
  EXPECT_TRUE(invalid_naming(
      dlock_lock_new(client_.get(), std::string(DLOCK_NAME_MAX + 1, 'n').c_str(), &raw), "name"));
  EXPECT_EQ(raw, nullptr);
  EXPECT_TRUE(
      invalid_naming(dlock_lock_new(client_.get(), std::string(10 * 1024, 'n').c_str(), &raw), "name"));
  EXPECT_TRUE(invalid_naming(dlock_lock_new(client_.get(), "", &raw), "name"));
  EXPECT_EQ(raw, nullptr);
}

}  // namespace
}  // namespace dlock_test
