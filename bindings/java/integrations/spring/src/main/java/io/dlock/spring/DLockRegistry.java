package io.dlock.spring;

import io.dlock.DLock;
import io.dlock.DLockClient;
import java.util.Objects;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Spring Integration's {@link LockRegistry} on dlock's locks, for the
 * components that take one (leader initiators, aggregators, the idempotent
 * receiver...): each key is the name of a distributed, reentrant, fenced lock
 * on Redis, shared with every process on that Redis (Redisson's {@code RLock}
 * of the same name included).
 *
 * <p>The locks are {@link DLock}s: owned by the acquiring thread, counted per
 * thread, kept alive by the client's watchdog until unlocked unless given a
 * lease. Nothing is cached here: the client gives the same {@code DLock} for a
 * name while anything refers to it and collects unused ones itself.
 */
public final class DLockRegistry implements LockRegistry {
  private final DLockClient client;

  /** Locks through {@code client}, which the caller opens and closes. */
  public DLockRegistry(DLockClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * The lock named {@code lockKey}; no round trip.
   *
   * @throws IllegalArgumentException when {@code lockKey} is not a String (as
   *     Spring's RedisLockRegistry requires)
   * @throws io.dlock.DLockException INVALID for a name the client refuses
   */
  @Override
  public DLock obtain(Object lockKey) {
    Objects.requireNonNull(lockKey, "lockKey");
    if (!(lockKey instanceof String name)) {
      throw new IllegalArgumentException(
          "lockKey must be a String, not a " + lockKey.getClass().getName() + ": " + lockKey);
    }
    return client.getLock(name);
  }
}
