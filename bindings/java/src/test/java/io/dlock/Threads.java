package io.dlock;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs test steps on other threads, since lock ownership follows threads. */
final class Threads {
  private Threads() {}

  /** Starts {@code body} on a new thread; its result or exception lands in the future. */
  static <T> CompletableFuture<T> start(Callable<T> body) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(body.call());
      } catch (Throwable thrown) {
        result.completeExceptionally(thrown);
      }
    });
    thread.setDaemon(true);
    thread.start();
    return result;
  }

  /** A blocking step that may be interrupted. */
  @FunctionalInterface
  interface Blocking {
    void run() throws InterruptedException;
  }

  /** Runs {@code body} on another thread and returns its result. */
  static <T> T onOtherThread(Callable<T> body)
      throws InterruptedException, ExecutionException, TimeoutException {
    return start(body).get(30, TimeUnit.SECONDS);
  }
}
