package io.dlock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A redis-server per test class; each test gets a client, a plain Redis
 * connection and a lock named after the test.
 */
abstract class PerTestLock {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  DLockClient client;
  Jedis jedis;
  DLock lock;
  String name;

  @BeforeEach
  void openPerTestLock(TestInfo test) {
    client = DLockClient.connect(redis.url());
    jedis = redis.jedis();
    name = test.getTestMethod().orElseThrow().getName();
    lock = client.getLock(name);
  }

  @AfterEach
  void closePerTestLock() {
    client.close();
    jedis.close();
  }
}
