package io.dlock;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps a client's native lock handles (or one handle closed on its own, a
 * DElection) alive while calls on them run: calls
 * enter and exit; closing rejects new calls, and frees the handles only after
 * the last call in flight has returned.
 */
final class HandleGuard {
  private final ReentrantReadWriteLock calls = new ReentrantReadWriteLock();
  /** What a call once closed is told: "the DLockClient is closed". */
  private final String closedMessage;
  private volatile boolean closed;

  /** A client's guard. */
  HandleGuard() {
    this("the DLockClient is closed");
  }

  /** The guard of a handle closed on its own (a DElection): {@code closedMessage} for calls after. */
  HandleGuard(String closedMessage) {
    this.closedMessage = closedMessage;
  }

  /** A call on native handles. */
  @FunctionalInterface
  interface Call<T, E extends Exception> {
    T run() throws E;
  }

  /** Runs {@code call} unless the client is closed (then IllegalStateException). */
  <T, E extends Exception> T call(Call<T, E> call) throws E {
    enter();
    try {
      return call.run();
    } finally {
      exit();
    }
  }

  /** {@link #call} for calls that return nothing. */
  void run(Runnable action) {
    call(() -> {
      action.run();
      return null;
    });
  }

  private void enter() {
    calls.readLock().lock();
    if (closed) {
      calls.readLock().unlock();
      throw closedError();
    }
  }

  private void exit() {
    calls.readLock().unlock();
  }

  void checkOpen() {
    if (closed) {
      throw closedError();
    }
  }

  boolean isClosed() {
    return closed;
  }

  /** Rejects calls from now on; false when it was already closed. */
  synchronized boolean shutOut() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }

  /** Runs {@code free} once every call in flight has returned. */
  void afterCalls(Runnable free) {
    calls.writeLock().lock();
    try {
      free.run();
    } finally {
      calls.writeLock().unlock();
    }
  }

  IllegalStateException closedError() {
    return new IllegalStateException(closedMessage);
  }
}
