package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class LostListenerTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  /** Renewed every 300 ms, so a loss shows within a second. */
  private static final String FAST_WATCHDOG = "?watchdog_timeout_ms=900";

  private DLockClient client;

  @BeforeEach
  void open() {
    client = DLockClient.connect(redis.url() + FAST_WATCHDOG);
  }

  @AfterEach
  void close() {
    client.close();
  }

  private record Loss(String name, long owner, long token, String thread) {}

  @Test
  void aRenewalThatFindsTheKeyGoneTellsTheListener() throws Exception {
    DLock lock = client.getLock("lost-deleted");
    CompletableFuture<Loss> loss = new CompletableFuture<>();
    lock.setLostListener((name, owner, token) ->
        loss.complete(new Loss(name, owner, token, Thread.currentThread().getName())));
    lock.lock();
    long token = lock.getFencingToken();

    try (Jedis jedis = redis.jedis()) {
      jedis.del("lost-deleted");
    }

    Loss reported = loss.get(5, TimeUnit.SECONDS);
    assertEquals("lost-deleted", reported.name());
    assertEquals(Thread.currentThread().getId(), reported.owner());
    assertEquals(token, reported.token());
    assertFalse(lock.isHeldByCurrentThread());
    assertThrows(LockLostException.class, lock::unlock);
  }

  @Test
  void aForcedUnlockByAnotherClientIsReportedAsALoss() throws Exception {
    DLock lock = client.getLock("lost-forced");
    CompletableFuture<Long> lostToken = new CompletableFuture<>();
    lock.setLostListener((name, owner, token) -> lostToken.complete(token));
    lock.lock();
    try (DLockClient other = DLockClient.connect(redis.url())) {
      other.getLock("lost-forced").forceUnlock();
    }
    assertEquals(lock.getFencingToken(), lostToken.get(5, TimeUnit.SECONDS));
    assertThrows(LockLostException.class, lock::unlock);
  }

  @Test
  void aThrowingListenerIsLoggedAndNeverReachesTheUncaughtExceptionHandler() throws Exception {
    RuntimeException failure = new RuntimeException("listener failed");
    CompletableFuture<LogRecord> logged = new CompletableFuture<>();
    CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
    Logger logger = Logger.getLogger("io.dlock");
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getThrown() == failure) {
          logged.complete(record);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    boolean parentHandlers = logger.getUseParentHandlers();
    logger.setUseParentHandlers(false); // the expected report stays out of the build log
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, thrown) -> uncaught.complete(thrown));
    try {
      DLock lock = client.getLock("lost-throwing");
      lock.setLostListener((name, owner, token) -> {
        throw failure;
      });
      lock.lock();
      try (Jedis jedis = redis.jedis()) {
        jedis.del("lost-throwing");
      }
      LogRecord record = logged.get(5, TimeUnit.SECONDS);
      assertEquals(Level.SEVERE, record.getLevel());
      assertTrue(record.getMessage().contains("lost-throwing"), record.getMessage());
      assertThrows(LockLostException.class, lock::unlock);
      assertFalse(uncaught.isDone(), "the listener's exception reached the uncaught handler");
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
      logger.removeHandler(capture);
      logger.setUseParentHandlers(parentHandlers);
    }
  }

  @Test
  void aClearedListenerHearsNothing() throws Exception {
    DLock lock = client.getLock("lost-cleared");
    CompletableFuture<Long> heard = new CompletableFuture<>();
    lock.setLostListener((name, owner, token) -> heard.complete(token));
    lock.setLostListener(null);
    lock.lock();
    try (Jedis jedis = redis.jedis()) {
      jedis.del("lost-cleared");
    }
    assertThrows(LockLostException.class, () -> {
      Thread.sleep(1000);
      lock.unlock();
    });
    assertFalse(heard.isDone());
  }
}
