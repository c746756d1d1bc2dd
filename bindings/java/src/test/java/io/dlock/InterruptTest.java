package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class InterruptTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  /** Short watchdog lease, so that an orphaned renewal would show within seconds. */
  private static final long LEASE_MS = 600;

  private DLockClient client;

  @BeforeEach
  void open() {
    client = DLockClient.connect(redis.url() + "?watchdog_timeout_ms=" + LEASE_MS);
  }

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void lockInterruptiblyReturnsWithin100msOfAnInterrupt() throws Exception {
    DLock lock = client.getLock("interrupt-blocked");
    lock.lock();
    for (int trial = 0; trial < 5; trial++) {
      AtomicLong thrownAt = new AtomicLong();
      CompletableFuture<Boolean> waiter = new CompletableFuture<>();
      Thread thread = new Thread(() -> {
        try {
          lock.lockInterruptibly();
          waiter.complete(false);
        } catch (InterruptedException expected) {
          thrownAt.set(System.nanoTime());
          waiter.complete(!Thread.currentThread().isInterrupted() && lock.getHoldCount() == 0);
        }
      });
      thread.start();
      Thread.sleep(150);
      assertFalse(waiter.isDone());

      long interruptedAt = System.nanoTime();
      thread.interrupt();

      assertTrue(waiter.get(5, TimeUnit.SECONDS), "threw InterruptedException, flag cleared, no hold");
      long latencyMs = TimeUnit.NANOSECONDS.toMillis(thrownAt.get() - interruptedAt);
      assertTrue(latencyMs < 100, "interrupt honoured after " + latencyMs + " ms");
    }
    lock.unlock();
  }

  @Test
  void timedTryLockIsInterruptible() throws Exception {
    DLock lock = client.getLock("interrupt-timed");
    lock.lock();
    CompletableFuture<Throwable> waiter = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        lock.tryLock(30, TimeUnit.SECONDS);
        waiter.complete(null);
      } catch (Throwable thrown) {
        waiter.complete(thrown);
      }
    });
    thread.start();
    Thread.sleep(150);
    thread.interrupt();
    assertTrue(waiter.get(5, TimeUnit.SECONDS) instanceof InterruptedException);
    lock.unlock();
  }

  @Test
  void anAlreadyInterruptedThreadDoesNotAcquire() {
    DLock lock = client.getLock("interrupt-early");
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, lock::lockInterruptibly);
    assertFalse(Thread.currentThread().isInterrupted());
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, () -> lock.tryLock(0, TimeUnit.SECONDS));
    assertFalse(lock.isLocked());
  }

  @Test
  void lockIgnoresInterruptsAndKeepsTheFlag() throws Exception {
    DLock lock = client.getLock("interrupt-ignored");
    lock.lock();
    CompletableFuture<Boolean> waiter = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      lock.lock();
      waiter.complete(Thread.currentThread().isInterrupted() && lock.isHeldByCurrentThread());
      lock.unlock();
    });
    thread.start();
    Thread.sleep(150);
    thread.interrupt();
    Thread.sleep(150);
    assertFalse(waiter.isDone(), "lock() gave up on an interrupt");
    lock.unlock();
    assertTrue(waiter.get(5, TimeUnit.SECONDS));
  }

  /** Scenario A6: interrupt storms leave no hold and no renewal behind. */
  @Test
  void interruptStormsLeaveNothingBehind() throws Exception {
    DLock lock = client.getLock("interrupt-storm");
    lock.lock();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> waiters = new ArrayList<>();
    List<CompletableFuture<Integer>> holdsLeft = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CompletableFuture<Integer> left = new CompletableFuture<>();
      holdsLeft.add(left);
      Thread waiter = new Thread(() -> {
        while (!stop.get()) {
          try {
            lock.lockInterruptibly();
            lock.unlock();
          } catch (InterruptedException expected) {
            // the storm
          }
        }
        Thread.interrupted();
        left.complete(lock.getHoldCount());
      });
      waiter.start();
      waiters.add(waiter);
    }
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < end) {
      waiters.forEach(Thread::interrupt);
      Thread.sleep(1);
    }
    stop.set(true);
    waiters.forEach(Thread::interrupt);
    for (CompletableFuture<Integer> left : holdsLeft) {
      assertEquals(0, left.get(10, TimeUnit.SECONDS));
    }

    lock.unlock();

    try (Jedis jedis = redis.jedis()) {
      assertFalse(jedis.exists("interrupt-storm"));
      Thread.sleep(3 * LEASE_MS);
      assertFalse(jedis.exists("interrupt-storm"), "something renewed or re-took the lock");
    }
  }
}
