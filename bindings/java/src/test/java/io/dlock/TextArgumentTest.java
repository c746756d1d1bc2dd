package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Text reaches the core as the UTF-8 a Python or Redisson client sends for the
 * same string; a NUL or a lone surrogate throws IllegalArgumentException
 * naming the argument, before any native call.
 */
class TextArgumentTest extends PerTestLock {
  private static void assertRefused(String argument, Executable call) {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, call);
    assertTrue(refused.getMessage().startsWith(argument + " must "), refused.getMessage());
  }

  @Test
  void aNulIsRefusedWhereverTextGoesToTheCore() {
    DPermitExpirableSemaphore permits = client.getPermitExpirableSemaphore(name);
    assertTrue(permits.trySetPermits(1));
    String id = permits.tryAcquire();
    assertRefused("name", () -> client.getLock(name + "\0x"));
    assertRefused("name", () -> client.getFairLock("\0"));
    assertRefused("name", () -> client.getReadWriteLock("a\0"));
    assertRefused("name", () -> client.getSemaphore("a\0"));
    assertRefused("name", () -> client.getCountDownLatch("a\0"));
    assertRefused("permitId", () -> permits.release(id + "\0"));
    assertRefused("permitId", () -> permits.tryRelease(id + "\0x"));
    assertRefused("periodId", () -> lock.countAttempt("p\0", 1, TimeUnit.SECONDS, 1));
    assertRefused("url", () -> DLockClient.connect(redis.url() + "\0"));
    assertTrue(permits.tryRelease(id), "the permit was released by a call refused");
  }

  @Test
  void aLoneSurrogateIsRefused() {
    assertRefused("name", () -> client.getLock("a\uD800"));
    assertRefused("name", () -> client.getSemaphore("\uDC00b"));
    assertRefused("periodId", () -> lock.countAttempt("\uDFFF", 1, TimeUnit.SECONDS, 1));
  }

  @Test
  void aCharacterBeyondTheBmpNamesTheSameKeyAsEveryOtherClientAndComesBackWhole() throws Exception {
    String wide = name + "-\uD83D\uDD12"; // U+1F512, a surrogate pair in Java
    DLock wideLock = client.getLock(wide);
    BlockingQueue<String> lost = new LinkedBlockingQueue<>();
    wideLock.setLostListener((lockName, owner, token) -> lost.add(lockName));
    wideLock.lock();
    assertTrue(jedis.exists(wide.getBytes(StandardCharsets.UTF_8)), "no key of the name's UTF-8");
    try (DLockClient other = DLockClient.connect(redis.url())) {
      assertTrue(other.getLock(wide).forceUnlock());
    }
    assertThrows(LockLostException.class, wideLock::unlock);
    assertEquals(wide, lost.poll(5, TimeUnit.SECONDS));
  }
}
