package io.dlock.shedlock;

import io.dlock.DLock;
import io.dlock.DLockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's {@link LockProvider} on dlock's locks: {@code @SchedulerLock} jobs
 * and {@code LockingTaskExecutor} run once across every process sharing the
 * Redis, each lock named as the job (a Redisson {@code RLock} of that name, a
 * {@code dlock run} with that name, or another provider on another client exclude it).
 *
 * <p>A grant is a fixed lease ending at {@code lockAtMostFor} after the
 * configuration was made, renewed only by ShedLock's
 * {@code LockExtender.extendActiveLock}: a task running longer loses the
 * lock as ShedLock's own providers do. {@link SimpleLock#unlock()} keeps the
 * lock taken until {@code lockAtLeastFor} has passed, so a second node whose
 * clock or schedule is a little off does not run the job again. The lock is
 * held by the thread that took it, which must be the one unlocking (as
 * ShedLock's executor and Spring's {@code @SchedulerLock} do); a thread already
 * holding it is refused, as ShedLock's locks are not reentrant. Each returned
 * lock is a {@link DLockSimpleLock}, whose fencing token the task can pass on
 * to the resource it writes.
 */
public final class DLockLockProvider implements LockProvider {
  private final DLockClient client;

  /** Locks through {@code client}, which the caller opens and closes. */
  public DLockLockProvider(DLockClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * One attempt (a round trip, no waiting) at the lock named
   * {@code configuration.getName()}.
   *
   * @return the hold, or empty when someone else holds the lock, this thread
   *     already holds it, or the thread was interrupted (its interrupt is kept)
   */
  @Override
  public Optional<SimpleLock> lock(LockConfiguration configuration) {
    Objects.requireNonNull(configuration, "configuration");
    DLock lock = client.getLock(configuration.getName());
    if (lock.isHeldByCurrentThread()) {
      return Optional.empty();
    }
    try {
      if (!lock.tryLock(0, leaseMillis(configuration), TimeUnit.MILLISECONDS)) {
        return Optional.empty();
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    return Optional.of(new DLockSimpleLock(lock, configuration));
  }

  /** The fixed lease a grant gets: until {@code lockAtMostUntil}, at least 1 ms. */
  static long leaseMillis(LockConfiguration configuration) {
    return Math.max(1, millisFromNow(configuration.getLockAtMostUntil()));
  }

  /** Milliseconds from now until {@code instant}, negative when it has passed. */
  static long millisFromNow(Instant instant) {
    return Duration.between(Instant.now(), instant).toMillis();
  }
}
