package io.dlock.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DLockClient;
import io.dlock.RedisServer;
import io.dlock.Threads;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two nodes (two clients, two providers, two executors) scheduling the same jobs. */
class DLockLockProviderTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private DLockClient firstClient;
  private DLockClient secondClient;
  private DLockLockProvider first;
  private DLockLockProvider second;

  @BeforeEach
  void connect() {
    firstClient = DLockClient.connect(redis.url());
    secondClient = DLockClient.connect(redis.url());
    first = new DLockLockProvider(firstClient);
    second = new DLockLockProvider(secondClient);
  }

  @AfterEach
  void close() {
    firstClient.close();
    secondClient.close();
  }

  @Test
  void aJobRunsOnceAcrossNodesWhileItRuns() throws Exception {
    LockingTaskExecutor firstNode = new DefaultLockingTaskExecutor(first);
    LockingTaskExecutor secondNode = new DefaultLockingTaskExecutor(second);
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch secondTried = new CountDownLatch(1);
    LockConfiguration job = job("report");
    var firstRun = Threads.start(() -> {
      firstNode.executeWithLock((Runnable) () -> {
        runs.incrementAndGet();
        running.countDown();
        awaitQuietly(secondTried);
      }, job);
      return null;
    });
    assertTrue(running.await(10, TimeUnit.SECONDS));
    secondNode.executeWithLock((Runnable) runs::incrementAndGet, job("report"));
    secondTried.countDown();
    firstRun.get(10, TimeUnit.SECONDS);
    assertEquals(1, runs.get());

    // Finished, without lockAtLeastFor: the lock is free at once.
    secondNode.executeWithLock((Runnable) runs::incrementAndGet, job("report"));
    assertEquals(2, runs.get());
  }

  @Test
  void lockAtLeastForKeepsTheOtherNodeOutAfterAShortRun() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    long start = System.nanoTime();
    new DefaultLockingTaskExecutor(first).executeWithLock((Runnable) runs::incrementAndGet,
        job("hourly", Duration.ofSeconds(30), Duration.ofSeconds(1)));
    LockingTaskExecutor secondNode = new DefaultLockingTaskExecutor(second);
    secondNode.executeWithLock((Runnable) runs::incrementAndGet, job("hourly"));
    assertEquals(1, runs.get(), "the second node ran the job within lockAtLeastFor");
    assertTrue(firstClient.getLock("hourly").isLocked());

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (runs.get() == 1 && System.nanoTime() < deadline) {
      Thread.sleep(50);
      secondNode.executeWithLock((Runnable) runs::incrementAndGet, job("hourly"));
    }
    assertEquals(2, runs.get(), "the lock was still kept 10 s after lockAtLeastFor");
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(elapsedMs >= 900, "kept only " + elapsedMs + " ms of lockAtLeastFor=1s");
  }

  @Test
  void lockAtMostForFreesTheLockOfANodeThatNeverFinishes() throws Exception {
    LockConfiguration shortLease = job("nightly", Duration.ofMillis(300), Duration.ZERO);
    DLockSimpleLock stuck = (DLockSimpleLock) first.lock(shortLease).orElseThrow();
    assertTrue(second.lock(job("nightly")).isEmpty());

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Optional<SimpleLock> taken = Optional.empty();
    while (taken.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      taken = second.lock(job("nightly"));
    }
    DLockSimpleLock next = (DLockSimpleLock) taken.orElseThrow(() -> new AssertionError("kept"));
    assertTrue(next.getFencingToken() > stuck.getFencingToken(),
        next.getFencingToken() + " after " + stuck.getFencingToken());
    // The stuck node finishing late releases nothing: the new holder keeps the lock.
    stuck.unlock();
    assertTrue(secondClient.getLock("nightly").isLocked());
    next.unlock();
    assertFalse(secondClient.getLock("nightly").isLocked());
  }

  @Test
  void lockExtenderPushesLockAtMostForBack() throws Exception {
    AtomicLong leaseAfterExtending = new AtomicLong();
    new DefaultLockingTaskExecutor(first).executeWithLock((Runnable) () -> {
      LockExtender.extendActiveLock(Duration.ofSeconds(30), Duration.ZERO);
      leaseAfterExtending.set(secondClient.getLock("extended").remainTimeToLive());
      assertTrue(second.lock(job("extended")).isEmpty());
    }, job("extended", Duration.ofMillis(500), Duration.ZERO));
    assertTrue(leaseAfterExtending.get() > 10_000, leaseAfterExtending.get() + " ms left");
    assertFalse(secondClient.getLock("extended").isLocked(), "the extended lock was not released");
  }

  @Test
  void aSpentLockCannotBeUnlockedAgain() {
    SimpleLock held = first.lock(job("spent")).orElseThrow();
    held.unlock();
    assertThrows(IllegalStateException.class, held::unlock);
  }

  @Test
  void aThreadHoldingTheLockIsRefusedAgain() {
    SimpleLock held = first.lock(job("once")).orElseThrow();
    assertTrue(first.lock(job("once")).isEmpty());
    held.unlock();
    assertFalse(firstClient.getLock("once").isLocked());
  }

  /** A job whose lockAtMostFor is long, without lockAtLeastFor. */
  private static LockConfiguration job(String name) {
    return job(name, Duration.ofSeconds(30), Duration.ZERO);
  }

  private static LockConfiguration job(String name, Duration atMost, Duration atLeast) {
    return new LockConfiguration(Instant.now(), name, atMost, atLeast);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
