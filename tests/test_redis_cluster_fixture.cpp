// The RedisCluster test fixture itself: it starts healthy, routes keys to the
// master owning their slot, moves a slot with its keys, and follows a failover.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "redis_cluster.hpp"

namespace dlock_test {
namespace {

TEST(RedisClusterFixture, StartsHealthyMovesASlotAndFailsOver) {
  RedisCluster cluster;
  const std::vector<int> masters = cluster.master_ports();
  ASSERT_EQ(masters.size(), 3u);
  for (const int master : masters) EXPECT_NE(cluster.replica_of(master), 0) << "master " << master;
  EXPECT_EQ(cluster.url().rfind("redis://127.0.0.1:", 0), 0u);

  const auto names = cluster.names_on_each_master(2, "fixture-");
  ASSERT_EQ(names.size(), 3u);
  for (std::size_t i = 0; i < names.size(); ++i) {
    ASSERT_EQ(names[i].size(), 2u);
    for (const std::string& name : names[i]) EXPECT_EQ(cluster.master_for_key(name), masters[i]) << name;
  }

  const std::string key = names[0][0];
  ASSERT_EQ(cluster.command_on_owner(key, {"SET", key, "moved"}).str, "OK");
  const int slot = cluster.slot_of(key);
  cluster.migrate_slot(slot, masters[1]);
  EXPECT_EQ(cluster.master_for_slot(slot), masters[1]);
  EXPECT_EQ(cluster.node(masters[1]).command({"GET", key}).str, "moved");
  EXPECT_TRUE(cluster.node(masters[0]).command({"GET", key}).is_error()) << "the old owner answers MOVED";

  const int replica = cluster.replica_of(masters[2]);
  cluster.kill_master(masters[2]);
  EXPECT_EQ(cluster.await_failover(masters[2], std::chrono::seconds(15)), replica);
  cluster.restart_node(masters[2]);
  EXPECT_EQ(cluster.replica_of(replica), masters[2]) << "the old master comes back as the replica";
}

}  // namespace
}  // namespace dlock_test
