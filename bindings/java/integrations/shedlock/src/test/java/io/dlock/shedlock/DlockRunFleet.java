package io.dlock.shedlock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another fleet's cron: at each period boundary (plus {@code lagMs}, a clock
 * a little behind), a new {@code dlock run} process with the given arguments,
 * as a crontab line on every node would start it. Each run is its own process
 * and nothing waits for it before the next boundary.
 */
final class DlockRunFleet implements AutoCloseable {
  private final List<String> command;
  private final long periodMs;
  private final long lagMs;
  private final List<Process> runs = new ArrayList<>();
  private final Thread cron;
  private volatile boolean stopped;
  private volatile IOException startFailure;
  private volatile long firstBoundaryMs = -1;
  private volatile long lastBoundaryMs = -1;

  DlockRunFleet(List<String> command, long periodMs, long lagMs) {
    this.command = List.copyOf(command);
    this.periodMs = periodMs;
    this.lagMs = lagMs;
    this.cron = new Thread(this::fire, "dlock-run-cron");
    cron.start();
  }

  private void fire() {
    long boundary = (System.currentTimeMillis() / periodMs + 1) * periodMs;
    try {
      while (!stopped) {
        Thread.sleep(Math.max(0, boundary + lagMs - System.currentTimeMillis()));
        if (stopped) {
          return;
        }
        Process run = new ProcessBuilder(command).inheritIO().start();
        synchronized (runs) {
          runs.add(run);
        }
        if (firstBoundaryMs < 0) {
          firstBoundaryMs = boundary;
        }
        lastBoundaryMs = boundary;
        boundary += periodMs;
      }
    } catch (InterruptedException stopping) {
      // stop() interrupts the wait for the next boundary.
    } catch (IOException e) {
      startFailure = e;
    }
  }

  /** The start of the first period it started a run in (-1 before). */
  long firstBoundaryMs() {
    return firstBoundaryMs;
  }

  /** The start of the last period it started a run in (-1 before). */
  long lastBoundaryMs() {
    return lastBoundaryMs;
  }

  /** Starts no more runs, waits for those started, and gives their exit codes in order. */
  List<Integer> stop() throws InterruptedException, IOException {
    stopped = true;
    cron.interrupt();
    cron.join();
    if (startFailure != null) {
      throw startFailure;
    }
    List<Integer> codes = new ArrayList<>();
    synchronized (runs) {
      for (Process run : runs) {
        if (!run.waitFor(30, TimeUnit.SECONDS)) {
          run.destroyForcibly();
        }
        codes.add(run.waitFor());
      }
    }
    return codes;
  }

  @Override
  public void close() throws InterruptedException, IOException {
    if (!stopped) {
      stop();
    }
  }
}
