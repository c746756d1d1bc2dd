package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DLockClient on a Redis Cluster, reached from one seed node: locks on every master. */
class ClusterTest {
  @RegisterExtension static final RedisCluster cluster = RedisCluster.SHARED;

  private static DLockClient client;
  private static DLockClient rival;

  @BeforeAll
  static void connect() {
    client = DLockClient.connect(cluster.url(0));
    rival = DLockClient.connect(cluster.url(1));  // another seed node
  }

  @AfterAll
  static void disconnect() {
    client.close();
    rival.close();
  }

  @Test
  void aLockOnEachMasterExcludesAnotherClientUntilUnlocked() throws Exception {
    List<String> names = cluster.namesOnEachMaster("java-cluster-each");
    Set<Integer> masters = new HashSet<>();
    for (String name : names) {
      masters.add(cluster.masterOf(name));
      Lock lock = client.getLock(name);
      lock.lock();
      try {
        assertTrue(cluster.exists(name), name + " is on its master");
        Lock other = rival.getLock(name);
        assertFalse(Threads.onOtherThread(() -> other.tryLock()), "a second holder of " + name);
      } finally {
        lock.unlock();
      }
      assertFalse(cluster.exists(name), name + " is gone after unlock");
      Lock other = rival.getLock(name);
      assertTrue(Threads.onOtherThread(() -> {
        boolean taken = other.tryLock();
        other.unlock();
        return taken;
      }));
    }
    assertEquals(3, masters.size());
  }

  @Test
  void aHoldConfirmedByAReplicaSurvivesItsMastersFailover() throws Exception {
    String name = "java-cluster-failover";
    // The failover takes about 2-3 s (cluster-node-timeout 1000): calls wait it out.
    try (DLockClient synced = DLockClient.connect(cluster.url(0) + "?sync_replicas=1&command_timeout_ms=8000");
        DLockClient other = DLockClient.connect(cluster.url(1) + "?command_timeout_ms=8000")) {
      DLock lock = synced.getLock(name);
      long token = lock.acquire().fencingToken();
      int killed = cluster.masterOf(name);
      int promoted = cluster.failOverMasterOf(name);
      assertNotEquals(killed, promoted);
      assertTrue(cluster.exists(name), "the hold reached the promoted replica");
      DLock rival = other.getLock(name);
      assertFalse(Threads.onOtherThread(() -> rival.tryLock()), "no second holder after the failover");
      lock.unlock();  // throws if the hold was lost
      long next = Threads.onOtherThread(() -> {
        long granted = rival.acquire().fencingToken();
        rival.unlock();
        return granted;
      });
      assertTrue(next > token, "tokens keep rising across the failover: " + token + " then " + next);
    }
  }

  @Test
  void anUnlockWakesAWaiterOfAnotherClientOnEachMaster() throws Exception {
    cluster.assertPromptWakeOnEachMaster("java-cluster-wake", client::getLock, rival::getLock);
  }
}
