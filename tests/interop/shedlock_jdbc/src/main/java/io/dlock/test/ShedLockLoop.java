package io.dlock.test;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The real ShedLock on the other side of dlock's ShedLock-table lock
 * (tests/test_sql_shedlock.cpp): JdbcTemplateLockProvider with usingDbTime(),
 * as a Spring @SchedulerLock job would use it.
 *
 * <pre>
 * ShedLockLoop JDBC_URL USER PASSWORD NAME loop LOCK_AT_MOST_FOR_MS RUN_MS HOLD_MS SECTIONS_FILE
 * ShedLockLoop JDBC_URL USER PASSWORD NAME hold LOCK_AT_MOST_FOR_MS HOLD_MS
 * ShedLockLoop JDBC_URL USER PASSWORD NAME try  LOCK_AT_MOST_FOR_MS
 * ShedLockLoop JDBC_URL USER PASSWORD NAME pairs LOCK_AT_MOST_FOR_MS WARMUP_MS RUN_MS
 * </pre>
 *
 * loop: for RUN_MS, lock NAME, hold it HOLD_MS, unlock, again; a refusal
 * sleeps 5-15 ms, and so does a pause after each unlock (a job's period,
 * giving the other side its turns). Each section is one line "START_NS END_NS" of
 * System.nanoTime(), which is CLOCK_MONOTONIC on Linux, so the test compares
 * them with its own; the first line printed is "clock NOW_NS" to check that.
 * hold: lock once, print "locked" (or "refused"), unlock HOLD_MS later and
 * print "unlocked". try: lock once, print "granted" (then unlock) or "refused".
 * pairs (bench/sql/sql_bench's reference): on one connection, as a pooled
 * service has, lock and unlock NAME uncontended for WARMUP_MS, then for RUN_MS,
 * and print "pairs COUNT ELAPSED_NS" for the second part.
 */
public final class ShedLockLoop {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String name = args[3];
    String mode = args[4];
    DataSource dataSource = mode.equals("pairs")
        ? new SingleConnectionDataSource(url, args[1], args[2], true)
        : new DriverManagerDataSource(url, args[1], args[2]);
    Duration atMostFor = Duration.ofMillis(Long.parseLong(args[5]));
    JdbcTemplateLockProvider provider = provider(dataSource);
    System.out.println("clock " + System.nanoTime());
    System.out.flush();
    switch (mode) {
      case "loop" -> loop(provider, name, atMostFor, Long.parseLong(args[6]), Long.parseLong(args[7]), args[8]);
      case "hold" -> hold(provider, name, atMostFor, Long.parseLong(args[6]));
      case "try" -> tryOnce(provider, name, atMostFor,
          Duration.ofMillis(args.length > 6 ? Long.parseLong(args[6]) : 0));
      case "pairs" -> pairs(provider, name, atMostFor, Long.parseLong(args[6]), Long.parseLong(args[7]));
      default -> throw new IllegalArgumentException("mode " + mode);
    }
  }

  private static JdbcTemplateLockProvider provider(DataSource dataSource) {
    return new JdbcTemplateLockProvider(
        JdbcTemplateLockProvider.Configuration.builder()
            .withJdbcTemplate(new JdbcTemplate(dataSource))
            .withLockedByValue("shedlock-interop")
            .usingDbTime()
            .build());
  }

  private static Optional<SimpleLock> lock(JdbcTemplateLockProvider provider, String name, Duration atMostFor) {
    return lock(provider, name, atMostFor, Duration.ZERO);
  }

  private static Optional<SimpleLock> lock(JdbcTemplateLockProvider provider, String name, Duration atMostFor,
      Duration atLeastFor) {
    return provider.lock(new LockConfiguration(Instant.now(), name, atMostFor, atLeastFor));
  }

  private static void loop(JdbcTemplateLockProvider provider, String name, Duration atMostFor, long runMs,
      long holdMs, String sectionsFile) throws IOException, InterruptedException {
    long end = System.nanoTime() + runMs * 1_000_000L;
    int sections = 0;
    try (PrintWriter out = new PrintWriter(new FileWriter(sectionsFile, true))) {
      while (System.nanoTime() < end) {
        Optional<SimpleLock> held = lock(provider, name, atMostFor);
        if (held.isEmpty()) {
          Thread.sleep(5 + (long) (Math.random() * 10));
          continue;
        }
        long start = System.nanoTime();
        Thread.sleep(holdMs);
        long stop = System.nanoTime();
        // Written before the unlock, as dlock's side logs before its release.
        out.println(start + " " + stop);
        out.flush();
        held.get().unlock();
        ++sections;
        Thread.sleep(5 + (long) (Math.random() * 10));
      }
    }
    System.out.println("sections " + sections);
  }

  private static void hold(JdbcTemplateLockProvider provider, String name, Duration atMostFor, long holdMs)
      throws InterruptedException {
    Optional<SimpleLock> held = lock(provider, name, atMostFor);
    System.out.println(held.isPresent() ? "locked " + System.nanoTime() : "refused");
    System.out.flush();
    if (held.isEmpty()) return;
    Thread.sleep(holdMs);
    long unlocking = System.nanoTime();
    held.get().unlock();
    System.out.println("unlocked " + unlocking);
    System.out.flush();
  }

  // One @SchedulerLock run: the job "runs" if granted, and the unlock keeps
  // the name for atLeastFor (lockAtLeastFor) from the grant.
  private static void tryOnce(JdbcTemplateLockProvider provider, String name, Duration atMostFor,
      Duration atLeastFor) {
    Optional<SimpleLock> held = lock(provider, name, atMostFor, atLeastFor);
    System.out.println(held.isPresent() ? "granted" : "refused");
    held.ifPresent(SimpleLock::unlock);
  }

  private static void pairs(JdbcTemplateLockProvider provider, String name, Duration atMostFor, long warmupMs,
      long runMs) {
    long warmupEnd = System.nanoTime() + warmupMs * 1_000_000L;
    while (System.nanoTime() < warmupEnd) lockAndUnlock(provider, name, atMostFor);
    long start = System.nanoTime();
    long end = start + runMs * 1_000_000L;
    long pairs = 0;
    long now = start;
    while (now < end) {
      lockAndUnlock(provider, name, atMostFor);
      ++pairs;
      now = System.nanoTime();
    }
    System.out.println("pairs " + pairs + " " + (now - start));
  }

  private static void lockAndUnlock(JdbcTemplateLockProvider provider, String name, Duration atMostFor) {
    lock(provider, name, atMostFor).orElseThrow(() -> new IllegalStateException(name + " refused")).unlock();
  }
}
