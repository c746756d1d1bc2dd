package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A latch's or a semaphore's key wiped by a restart without persistence: told, not taken for success. */
class VanishedKeysTest {
  // Its own server: each test restarts it, which wipes every key.
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void aLatchWaiterLearnsTheCountVanished() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      DCountDownLatch latch = client.getCountDownLatch("vanished-latch");
      assertTrue(latch.trySetCount(3));
      CompletableFuture<Boolean> waiter = Threads.start(() -> latch.await(20, TimeUnit.SECONDS));
      Thread.sleep(300);
      redis.restart();
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> waiter.get(10, TimeUnit.SECONDS));
      assertInstanceOf(LatchLostException.class, failed.getCause());
      assertInstanceOf(LockLostException.class, failed.getCause());
    }
  }

  @Test
  void aReleaseIntoAVanishedSemaphoreIsALossAndTrySetPermitsRepairs() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      DSemaphore semaphore = client.getSemaphore("vanished-semaphore");
      assertTrue(semaphore.trySetPermits(2));
      assertTrue(semaphore.tryAcquire());
      redis.restart();
      assertThrows(LockLostException.class, semaphore::release);
      assertTrue(semaphore.trySetPermits(2), "the vanished semaphore could not be set again");
      assertEquals(2, semaphore.availablePermits());
    }
  }
}
