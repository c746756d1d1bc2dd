package io.dlock;

import java.util.Set;

/**
 * Keeps one DLock from the garbage collector while a hold is taken through its
 * native handle, or while a call that may take or end one runs. An unreachable
 * DLock's handle is freed by a Cleaner ({@link LockHandles}), and freeing a
 * handle releases the holds taken through it (dlock_lock_free): that must never
 * happen under a holder who dropped its last reference to the DLock.
 */
final class KeptWhileHeld {
  private final DLock lock;
  /** The client's DLocks kept this way. */
  private final Set<DLock> kept;
  private final NativeLock handle;
  private final HandleGuard guard;
  /** Guarded by this: calls running that may take or end holds. */
  private int changing;

  KeptWhileHeld(DLock lock, Set<DLock> kept, NativeLock handle, HandleGuard guard) {
    this.lock = lock;
    this.kept = kept;
    this.handle = handle;
    this.guard = guard;
  }

  /** Runs {@code call}, which may take or end holds, keeping the lock meanwhile. */
  <T, E extends Exception> T around(HandleGuard.Call<T, E> call) throws E {
    begin();
    try {
      return call.run();
    } finally {
      end();
    }
  }

  /** A call that may take or end holds starts (an asynchronous one ends with {@link #end()}). */
  synchronized void begin() {
    changing++;
    kept.add(lock);
  }

  /**
   * Such a call has ended: once none runs, the lock stays kept only while
   * something is held through its handle. The check and the unkeeping are one
   * step against {@link #begin()}, so a grant racing with the last release
   * stays kept.
   */
  synchronized void end() {
    changing--;
    if (changing == 0 && !holdsThrough()) {
      kept.remove(lock);
    }
  }

  private boolean holdsThrough() {
    try {
      return guard.call(handle::holdsThrough) > 0;
    } catch (IllegalStateException closed) {
      return false;  // closing the client released every hold and frees every handle
    }
  }
}
