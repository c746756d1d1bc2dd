package io.dlock;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RedissonClient;

/**
 * One redis-server per test class, with a real Redisson client and a dlock client on it: the
 * set-up of the tests that check dlock against Redisson on the same names.
 */
abstract class InteropFixture {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  /** A waiter woken by pub/sub acquires well within this; without it, ~30 s of lease. */
  static final long PROMPT_MS = 2_000;

  static RedissonClient redisson;
  static DLockClient dlock;

  @BeforeAll
  static void connect() {
    redisson = redis.redisson();
    dlock = DLockClient.connect(redis.url());
  }

  @AfterAll
  static void disconnect() {
    dlock.close();
    redisson.shutdown();
  }
}
