package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Virtual threads waiting for a lock unmount from their carriers, so with 8
 * virtual threads on 2 carriers every holder finds a carrier to unlock on.
 * Runs {@link VirtualThreadProbe} in a JVM of Java 21 or later ({@link TwoCarriers}).
 */
class VirtualThreadTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static final int THREADS = 8;
  private static final int ROUNDS = 5;

  @Test
  void everyVirtualThreadGetsTheLockWithinItsWaitOnTwoCarriers() throws Exception {
    Map<String, String> result = runProbe("tryLock");
    assertEquals(Integer.toString(THREADS * ROUNDS), result.get("acquired"), result.toString());
    assertEquals("0", result.get("timedOut"), result.toString());
    assertEquals("0", result.get("violations"), result.toString());
  }

  @Test
  void everyVirtualThreadWaitingInLockFinishesOnTwoCarriers() throws Exception {
    Map<String, String> result = runProbe("lock");
    assertEquals(Integer.toString(THREADS), result.get("finished"), result.toString());
    assertEquals(Integer.toString(THREADS * ROUNDS), result.get("acquired"), result.toString());
    assertEquals("0", result.get("violations"), result.toString());
  }

  @Test
  void aWaitOnAVirtualThreadRespectsANamedWaitersTurnWhereATryBarges() throws Exception {
    // Another owner's turn on the free lock, as a release that named a waiter
    // leaves it; long enough to outlast the probe JVM's start.
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      jedis.set("dlock_turn:{" + VirtualThreadProbe.TURN_LOCK + "}", "someone-else",
          SetParams.setParams().px(20_000));
    }
    Map<String, String> result = runProbe("turn");
    assertEquals("false", result.get("waited"), "the wait's first attempt overtook the named waiter");
    assertEquals("true", result.get("tried"), "tryLock() barges");
  }

  @Test
  void aThousandVirtualThreadsWaitingOnAReadLockAllGetItOnTwoCarriers() throws Exception {
    Map<String, String> result = runWaitProbe("readers", 1000);
    assertEquals("1000", result.get("finished"), result.toString());
  }

  /** The other primitives' waits park in Java too: the holder, a virtual thread, finds a carrier. */
  @ParameterizedTest
  @ValueSource(strings = {"semaphore", "permits", "latch", "multilock"})
  void virtualThreadsWaitingOnEveryPrimitiveLeaveTheCarriersFree(String kind) throws Exception {
    Map<String, String> result = runWaitProbe(kind, 100);
    assertEquals("100", result.get("finished"), result.toString());
  }

  private static Map<String, String> runProbe(String mode) throws Exception {
    return runOnTwoCarriers(VirtualThreadProbe.class, "attempts=", mode, Integer.toString(THREADS),
        Integer.toString(ROUNDS));
  }

  private static Map<String, String> runWaitProbe(String kind, int waiters) throws Exception {
    return runOnTwoCarriers(VirtualWaitProbe.class, "finished=", kind, Integer.toString(waiters));
  }

  /** Runs {@code probe} on 2 carriers and parses its line starting with {@code report}. */
  private static Map<String, String> runOnTwoCarriers(Class<?> probe, String report, String mode, String... more)
      throws Exception {
    return TwoCarriers.run(probe, report, TwoCarriers.arguments(redis.url(), mode, more));
  }
}
