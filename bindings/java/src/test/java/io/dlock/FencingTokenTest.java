package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class FencingTokenTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void tokensStrictlyIncreaseAcrossClientsAndThreads() throws Exception {
    try (DLockClient first = DLockClient.connect(redis.url());
        DLockClient second = DLockClient.connect(redis.url())) {
      long previous = 0;
      for (int grant = 0; grant < 20; grant++) {
        DLock lock = (grant % 2 == 0 ? first : second).getLock("fenced");
        long token = grant % 3 == 0 ? Threads.onOtherThread(() -> lockAndUnlock(lock)) : lockAndUnlock(lock);
        assertTrue(token > previous, token + " after " + previous);
        previous = token;
      }
    }
  }

  @Test
  void reenteringKeepsTheTokenAndTheCounterHoldsTheLastGrant() {
    try (DLockClient client = DLockClient.connect(redis.url()); Jedis jedis = redis.jedis()) {
      for (String name : new String[] {"counter", "job{42}"}) {
        DLock lock = client.getLock(name);
        lock.lock();
        long token = lock.getFencingToken();
        lock.lock();
        assertEquals(token, lock.getFencingToken());
        String counterKey = name.contains("{") ? "redisson_lock_token:" + name
            : "redisson_lock_token:{" + name + "}";
        assertEquals(Long.toString(token), jedis.get(counterKey));
        lock.unlock();
        assertEquals(token, lock.getFencingToken());
        lock.unlock();
        assertThrows(IllegalMonitorStateException.class, lock::getFencingToken);
      }
    }
  }

  private static long lockAndUnlock(DLock lock) {
    lock.lock();
    try {
      return lock.getFencingToken();
    } finally {
      lock.unlock();
    }
  }
}
