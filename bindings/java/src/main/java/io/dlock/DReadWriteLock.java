package io.dlock;

import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * A read-write lock on Redis in Redisson's {@code RReadWriteLock} layout: a
 * Redisson {@code getReadWriteLock(name)} of the same name is the same lock.
 *
 * <p>{@link #readLock()} and {@link #writeLock()} are {@link DLock}s: readers
 * share, a writer excludes readers and writers; both sides are reentrant per
 * thread, and the thread holding the write lock may also take the read lock
 * (downgrade: unlocking the write lock then leaves the read hold). The reverse
 * (upgrade) waits for ever, as in Redisson and java.util.concurrent. A dlock
 * writer that waits holds back new dlock readers so they cannot starve it.
 * What only a reentrant lock has ({@code inspect}, {@code countAttempt},
 * {@code unlockKeeping}) throws {@link DLockException} UNSUPPORTED on a side.
 */
public final class DReadWriteLock implements ReadWriteLock {
  private final String name;
  private final DLock readLock;
  private final DLock writeLock;
  private final NativeLock writeHandle;
  private final HandleGuard guard;

  DReadWriteLock(String name, NativeClient client, HandleGuard guard, Executor callbacks,
      Set<DLock> kept) {
    this.name = name;
    NativeLock read = client.newReadLock(name);
    NativeLock write;
    try {
      write = client.newWriteLock(name);
    } catch (RuntimeException error) {
      read.delete();
      throw error;
    }
    this.writeHandle = write;
    this.guard = guard;
    this.readLock = new DLock(name, read, guard, callbacks, kept);
    this.writeLock = new DLock(name, write, guard, callbacks, kept);
  }

  public String getName() {
    return name;
  }

  /** The read side: shared with other readers, excluded by a writer. */
  @Override
  public DLock readLock() {
    return readLock;
  }

  /** The write side: excludes readers and writers; its holder may also read. */
  @Override
  public DLock writeLock() {
    return writeLock;
  }

  /**
   * Writer preference (on by default): while a writer of this object waits,
   * new dlock readers wait behind it, so a stream of readers cannot starve
   * it; re-entries and the writer's own read never wait. Off, readers are
   * preferred, as in Redisson (whose readers ignore the preference anyway).
   */
  public void setWriterPreference(boolean enabled) {
    guard.run(() -> writeHandle.setWriterPreference(enabled));
  }

  @Override
  public String toString() {
    return "DReadWriteLock[" + name + "]";
  }

  void free() {
    readLock.free();
    writeLock.free();
  }
}
