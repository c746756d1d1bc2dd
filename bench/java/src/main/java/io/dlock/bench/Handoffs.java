package io.dlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Contended hand-off latency: JVMS processes of THREADS_PER_JVM threads each
 * take one lock in turn; a hand-off is the time from a release to the next
 * section's acquisition, counted when its holder was already waiting (another
 * thread) at the release.
 */
final class Handoffs {
  static final int JVMS = 2;
  static final int THREADS_PER_JVM = 4;
  private static final long WARMUP_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final long MEASURED_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** Latency percentiles in microseconds, and how many hand-offs they cover. */
  record Result(double p50Micros, double p99Micros, int count) {}

  private record Section(String holder, long waitStart, long acquired, long released) {}

  private Handoffs() {}

  static Result measure(String kind, String url) throws IOException, InterruptedException {
    long start = System.nanoTime() + TimeUnit.SECONDS.toNanos(3); // JVM start-up and connect
    long measureFrom = start + WARMUP_NANOS;
    long end = measureFrom + MEASURED_NANOS;
    String lockName = "bench-handoff-" + kind;
    List<Process> workers = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    for (int j = 0; j < JVMS; j++) {
      Path log = Files.createTempFile("dlock-bench-handoff", ".log");
      logs.add(log);
      workers.add(new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp", System.getProperty("java.class.path"), LockBenchmark.class.getName(),
              "worker", kind, url, lockName, Integer.toString(THREADS_PER_JVM), Long.toString(end),
              log.toString())
          .inheritIO()
          .start());
    }
    for (Process worker : workers) {
      if (worker.waitFor() != 0) {
        throw new IOException("hand-off worker failed for " + kind);
      }
    }
    List<Section> sections = new ArrayList<>();
    for (Path log : logs) {
      for (String line : Files.readAllLines(log)) {
        String[] f = line.split(" ");
        sections.add(new Section(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
      }
      Files.delete(log);
    }
    return analyse(sections, measureFrom);
  }

  private static Result analyse(List<Section> sections, long measureFrom) {
    sections.sort(Comparator.comparingLong(Section::acquired));
    long[] latencies = new long[sections.size()];
    int count = 0;
    for (int i = 1; i < sections.size(); i++) {
      Section previous = sections.get(i - 1);
      Section next = sections.get(i);
      if (next.acquired() < previous.released()) {
        throw new IllegalStateException("sections overlap: " + previous + " " + next);
      }
      boolean waitedForThisRelease = next.waitStart() < previous.released()
          && !next.holder().equals(previous.holder());
      if (previous.released() >= measureFrom && waitedForThisRelease) {
        latencies[count++] = next.acquired() - previous.released();
      }
    }
    long[] measured = Arrays.copyOf(latencies, count);
    Arrays.sort(measured);
    return new Result(percentile(measured, 0.50), percentile(measured, 0.99), count);
  }

  /** The p-th percentile (0..1) of sorted nanoseconds, in microseconds; NaN when empty. */
  static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1_000.0;
  }
}
