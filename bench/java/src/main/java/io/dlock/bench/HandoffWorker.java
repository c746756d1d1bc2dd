package io.dlock.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * One JVM of the contended run: its threads take one lock in turn until a
 * deadline and log every section as "holder waitStart acquired released"
 * (System.nanoTime, i.e. CLOCK_MONOTONIC, comparable across processes).
 */
final class HandoffWorker {
  /** Work inside the lock, and think time outside it, so that others queue up. */
  private static final long HOLD_NANOS = 50_000;
  private static final long THINK_NANOS = 200_000;

  private HandoffWorker() {}

  static void run(String kind, String url, String lockName, int threads, long endNanos, Path out)
      throws Exception {
    List<String> lines = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    try (LockSystem system = LockSystem.open(kind, url)) {
      String process = Long.toString(ProcessHandle.current().pid());
      for (int t = 0; t < threads; t++) {
        String holder = process + "/" + t;
        Lock lock = system.lock(lockName);
        Thread worker = new Thread(() -> {
          List<String> mine = new ArrayList<>();
          while (System.nanoTime() < endNanos) {
            long waitStart = System.nanoTime();
            lock.lock();
            long acquired = System.nanoTime();
            spinUntil(acquired + HOLD_NANOS);
            long released = System.nanoTime();
            lock.unlock();
            mine.add(holder + " " + waitStart + " " + acquired + " " + released);
            LockSupport.parkNanos(THINK_NANOS);
          }
          synchronized (lines) {
            lines.addAll(mine);
          }
        });
        worker.start();
        workers.add(worker);
      }
      for (Thread worker : workers) {
        worker.join();
      }
    }
    write(out, lines);
  }

  private static void spinUntil(long deadline) {
    while (System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
  }

  private static void write(Path out, List<String> lines) throws IOException {
    try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out))) {
      lines.forEach(writer::println);
    }
  }
}
