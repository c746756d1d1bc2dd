package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.Jedis;

/** client.getFairLock(name): a java.util.concurrent Lock served first come, first served. */
class FairLockTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static RedissonClient redisson;
  private static DLockClient dlock;
  private static DLockClient other;

  @BeforeAll
  static void connect() {
    redisson = redis.redisson();
    dlock = DLockClient.connect(redis.url());
    other = DLockClient.connect(redis.url());
  }

  @AfterAll
  static void disconnect() {
    other.close();
    dlock.close();
    redisson.shutdown();
  }

  private static String queue(String name) {
    return "dlock_fair_queue:{" + name + "}";
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "condition never held");
      Thread.sleep(5);
    }
  }

  /** tryLock(5 s) then unlock on another thread, returned once that waiter is queued. */
  private static CompletableFuture<Boolean> queuedTryLock(DLock fair, String name) throws Exception {
    CompletableFuture<Boolean> waiter =
        Threads.start(
            () -> {
              boolean got = fair.tryLock(5, TimeUnit.SECONDS);
              if (got) fair.unlock();
              return got;
            });
    try (Jedis jedis = redis.jedis()) {
      waitFor(() -> jedis.zcard(queue(name)) == 1);
    }
    return waiter;
  }

  @Test
  void isALockThatReentersAndReleases() throws Exception {
    Lock lock = dlock.getFairLock("fair-basic");
    assertInstanceOf(Lock.class, lock);
    assertSame(lock, dlock.getFairLock("fair-basic"));
    lock.lock();
    DLock fair = (DLock) lock;
    long token = fair.getFencingToken();
    assertTrue(lock.tryLock());
    assertEquals(2, fair.getHoldCount());
    lock.unlock();
    lock.unlock();
    assertFalse(fair.isLocked());
    try (LockHold hold = fair.acquire()) {
      assertTrue(fair.isHeldByCurrentThread());
      assertTrue(hold.fencingToken() > token);
    }
    assertFalse(fair.isLocked());
  }

  @Test
  void waitersAreServedInArrivalOrder() throws Exception {
    String name = "fair-order";
    DLock holder = dlock.getFairLock(name);
    holder.lock();
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<CompletableFuture<Void>> waiters = new ArrayList<>();
    try (Jedis jedis = redis.jedis()) {
      for (int i = 0; i < 5; i++) {
        int index = i;
        waiters.add(
            Threads.start(
                () -> {
                  DLock lock = other.getFairLock(name);
                  lock.lock();
                  try {
                    order.add(index);
                    Thread.sleep(20);
                  } finally {
                    lock.unlock();
                  }
                  return null;
                }));
        waitFor(() -> jedis.zcard(queue(name)) == index + 1);
      }
      holder.unlock();
      for (CompletableFuture<Void> waiter : waiters) waiter.get(10, TimeUnit.SECONDS);
      assertEquals(List.of(0, 1, 2, 3, 4), order);
      assertFalse(jedis.exists(queue(name)));
    }
  }

  @Test
  void excludesRedissonsLocksOnTheSameName() throws Exception {
    String name = "fair-redisson";
    RLock rlock = redisson.getLock(name);
    DLock fair = dlock.getFairLock(name);
    rlock.lock();
    try {
      assertFalse(Threads.onOtherThread(() -> fair.tryLock()));
      assertFalse(Threads.onOtherThread(() -> fair.tryLock(200, TimeUnit.MILLISECONDS)));
      // A fair waiter queued behind Redisson's holder gets the lock after its unlock.
      CompletableFuture<Boolean> waiter = queuedTryLock(fair, name);
      rlock.unlock();
      assertTrue(waiter.get(10, TimeUnit.SECONDS));
    } finally {
      if (rlock.isHeldByCurrentThread()) rlock.unlock();
    }
    fair.lock();
    try {
      assertFalse(Threads.onOtherThread(() -> redisson.getLock(name).tryLock()));
      assertFalse(Threads.onOtherThread(() -> redisson.getFairLock(name).tryLock()));
    } finally {
      fair.unlock();
    }
    assertTrue(Threads.onOtherThread(() -> {
      RLock again = redisson.getLock(name);
      boolean got = again.tryLock();
      if (got) again.unlock();
      return got;
    }));
  }

  @Test
  void waitsItsTurnBehindRedissonsFairLock() throws Exception {
    String name = "fair-rfairlock";
    RLock rfair = redisson.getFairLock(name);
    DLock fair = dlock.getFairLock(name);
    rfair.lock();
    try {
      assertFalse(Threads.onOtherThread(() -> fair.tryLock()));
      CompletableFuture<Boolean> waiter = queuedTryLock(fair, name);
      rfair.unlock();
      // RFairLock wakes only its own queue: dlock's head is granted by its heartbeat.
      assertTrue(waiter.get(10, TimeUnit.SECONDS));
    } finally {
      if (rfair.isHeldByCurrentThread()) rfair.unlock();
    }
  }

  @Test
  void anInterruptedWaiterReturnsPromptlyAndLeavesTheQueue() throws Exception {
    String name = "fair-interrupt";
    DLock holder = dlock.getFairLock(name);
    DLock fair = other.getFairLock(name);
    holder.lock();
    try (Jedis jedis = redis.jedis()) {
      CompletableFuture<Long> interruptedAfter = new CompletableFuture<>();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  fair.lockInterruptibly();
                  fair.unlock();
                  interruptedAfter.completeExceptionally(new AssertionError("acquired"));
                } catch (InterruptedException expected) {
                  interruptedAfter.complete(System.nanoTime());
                }
              });
      waiter.start();
      waitFor(() -> jedis.zcard(queue(name)) == 1);
      long interrupted = System.nanoTime();
      waiter.interrupt();
      long returned = interruptedAfter.get(5, TimeUnit.SECONDS);
      assertTrue(TimeUnit.NANOSECONDS.toMillis(returned - interrupted) < 50, "interrupt took too long");
      waitFor(() -> jedis.zcard(queue(name)) == 0);
    } finally {
      holder.unlock();
    }
  }

  @Test
  void badInputIsRefused() {
    assertThrows(NullPointerException.class, () -> dlock.getFairLock(null));
    DLockException empty = assertThrows(DLockException.class, () -> dlock.getFairLock(""));
    assertEquals(DLockStatus.INVALID, empty.getStatus());
    assertThrows(DLockException.class, () -> dlock.getFairLock("a}b"));
    DLock fair = dlock.getFairLock("fair-bad-input");
    assertThrows(IllegalMonitorStateException.class, fair::unlock);
    assertThrows(IllegalArgumentException.class, () -> fair.tryLock(0, -5, TimeUnit.MILLISECONDS));
  }
}
