package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Every public call with hostile arguments ({@link ArgumentFuzzProbe}), in a
 * child JVM: it must not crash, must throw only the documented exception
 * types, and must leave alone what another client holds. The seed is fixed so
 * a failure replays; -Ddlock.fuzz.seed and -Ddlock.fuzz.calls override it.
 */
class ArgumentFuzzTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();
  @RegisterExtension static final RedisServer second = new RedisServer();
  @RegisterExtension static final RedisServer third = new RedisServer();

  private static final String SEED = System.getProperty("dlock.fuzz.seed", "21");
  private static final String CALLS = System.getProperty("dlock.fuzz.calls", "10000");

  @Test
  void hostileArgumentsNeverCrashNorReleaseWhatAnotherHolds() throws Exception {
    String prefix = "fuzz-" + UUID.randomUUID();
    try (DLockClient victim = DLockClient.connect(redis.url()); Jedis jedis = redis.jedis()) {
      List<DLock> locks = List.of(victim.getLock(prefix + "-victim-lock"),
          victim.getFairLock(prefix + "-victim-fair"),
          victim.getReadWriteLock(prefix + "-victim-rw").writeLock());
      locks.forEach(DLock::lock);
      List<Map<String, String>> held = new ArrayList<>();
      locks.forEach(lock -> held.add(jedis.hgetAll(lock.getName())));
      DSemaphore semaphore = victim.getSemaphore(prefix + "-victim-semaphore");
      assertTrue(semaphore.trySetPermits(1) && semaphore.tryAcquire());
      DPermitExpirableSemaphore permits = victim.getPermitExpirableSemaphore(prefix + "-victim-permits");
      assertTrue(permits.trySetPermits(1));
      String permit = permits.tryAcquire();
      assertNotNull(permit);
      DCountDownLatch latch = victim.getCountDownLatch(prefix + "-victim-latch");
      assertTrue(latch.trySetCount(3));

      ChildJvm.Result run = ChildJvm.run(Path.of(System.getProperty("java.home"), "bin", "java"),
          System.getProperty("java.class.path"),
          List.of("-D" + NativeLoader.PATH_PROPERTY + "=" + System.getProperty("dlock.native.library")),
          ArgumentFuzzProbe.class.getName(), SEED, CALLS, prefix, locks.get(0).getName(),
          locks.get(1).getName(), locks.get(2).getName(), semaphore.getName(), permits.getName(),
          latch.getName(), permit, Long.toString(Thread.currentThread().getId()), redis.url(),
          second.url(), third.url());

      assertTrue(run.exitCode() == 0 && run.output().endsWith("done\n"), () -> failureReport(run));
      for (int i = 0; i < locks.size(); i++) {
        assertTrue(locks.get(i).isHeldByCurrentThread(), locks.get(i) + " is no longer held");
        assertEquals(held.get(i), jedis.hgetAll(locks.get(i).getName()), locks.get(i) + "'s holders changed");
      }
      assertEquals(3, latch.getCount());
      assertTrue(permits.tryRelease(permit), "the permit was released by the fuzzing client");
      locks.forEach(DLock::unlock);
    }
  }

  /** The seed, and the last call the child started with the arguments it drew. */
  private static String failureReport(ChildJvm.Result run) {
    String output = run.output();
    int last = output.lastIndexOf("call ");
    return "seed " + SEED + ", " + CALLS + " calls: the child JVM exited with " + run.exitCode()
        + " in\n" + (last < 0 ? output : output.substring(last, Math.min(output.length(), last + 6000)));
  }
}
