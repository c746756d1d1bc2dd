package io.dlock.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two fleets share one job: a Spring Boot application ({@code @Scheduled} +
 * {@code @SchedulerLock} on {@link DLockLockProvider}) and another fleet's cron
 * starting {@code dlock run --wait 800ms --hold-after-success 2s report} at each
 * 2 s boundary (100 ms late, a clock a little behind). The Spring application
 * starts after the cron and stops before it, so each fleet runs the job alone
 * for a while and both contend in between. The job's own log must show exactly
 * one run per period and no two runs overlapping, whoever ran them.
 */
class SpringSchedulerLockWithDlockRunTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static final long PERIOD_MS = 2000;
  private static final long CRON_LAG_MS = 100;

  @Test
  void theJobRunsOncePerPeriodBetweenSpringAndDlockRun() throws Exception {
    JobLog log = new JobLog(Files.createTempDirectory("dlock-report").resolve("runs.log"));
    List<Integer> exitCodes;
    long firstPeriod;
    long lastPeriod;
    try (DlockRunFleet cron = new DlockRunFleet(dlockRun(log.file()), PERIOD_MS, CRON_LAG_MS)) {
      long boundary = nextBoundary(System.currentTimeMillis());
      sleepUntil(boundary + PERIOD_MS + 500); // the cron alone for a period
      try (ConfigurableApplicationContext spring = springApplication(log.file())) {
        sleepUntil(nextBoundary(System.currentTimeMillis()) + 4 * PERIOD_MS + 1000);
      }
      sleepUntil(nextBoundary(System.currentTimeMillis()) + PERIOD_MS + 1000); // the cron alone again
      exitCodes = cron.stop();
      firstPeriod = cron.firstBoundaryMs() / PERIOD_MS;
      lastPeriod = cron.lastBoundaryMs() / PERIOD_MS;
    }

    List<JobLog.Run> runs = log.runs();
    Map<Long, List<String>> runnersByPeriod = new TreeMap<>();
    for (JobLog.Run run : runs) {
      runnersByPeriod.computeIfAbsent(run.startMs() / PERIOD_MS, period -> new ArrayList<>())
          .add(run.who());
    }
    System.out.println("periods " + firstPeriod + ".." + lastPeriod + ", runners by period: "
        + runnersByPeriod + ", dlock run exit codes: " + exitCodes);

    for (int i = 1; i < runs.size(); i++) {
      JobLog.Run before = runs.get(i - 1);
      JobLog.Run after = runs.get(i);
      assertTrue(before.endMs() <= after.startMs(), "overlapping runs: " + before + " and " + after);
      assertTrue(before.token() < after.token(), "tokens not increasing: " + before + ", " + after);
    }
    for (long period = firstPeriod; period <= lastPeriod; period++) {
      assertEquals(1, runnersByPeriod.getOrDefault(period, List.of()).size(),
          "runs in period " + period + ": " + runnersByPeriod);
    }
    assertEquals(lastPeriod - firstPeriod + 1, runs.size(), "runs outside the periods: " + runs);
    Set<String> runners = runs.stream().map(JobLog.Run::who).collect(Collectors.toSet());
    assertEquals(Set.of("spring", "dlock-run"), runners, "who ran the job");
    assertTrue(exitCodes.stream().allMatch(code -> code == 0 || code == 75),
        "dlock run exits other than 0 (ran) and 75 (done or running elsewhere): " + exitCodes);
  }

  /** A dlock run of the job: a shell recording its run in the job's log, as the Spring job does. */
  private static List<String> dlockRun(Path log) {
    String record = "echo \"$1 $(date +%s%3N) $DLOCK_FENCING_TOKEN dlock-run\" >> \"$0\"";
    String job = "set -- start; " + record + "; sleep 0.3; set -- end; " + record;
    return List.of(dlockCommand(), "run", "--url", redis.url(), "--wait", "800ms",
        "--hold-after-success", PERIOD_MS + "ms", ReportApplication.JOB, "--", "sh", "-c", job,
        log.toString());
  }

  private static String dlockCommand() {
    String cli = System.getProperty("dlock.cli", "");
    if (cli.isEmpty() || !Files.isExecutable(Path.of(cli))) {
      throw new IllegalStateException("-Ddlock.cli=" + cli + ": not the dlock command"
          + " (bindings/java/build.sh builds it and passes its path)");
    }
    return cli;
  }

  private static ConfigurableApplicationContext springApplication(Path log) {
    return new SpringApplicationBuilder(ReportApplication.class)
        .web(WebApplicationType.NONE)
        .bannerMode(Banner.Mode.OFF)
        .properties("dlock.url=" + redis.url(), "report.log=" + log, "logging.level.root=warn")
        .run();
  }

  private static long nextBoundary(long epochMs) {
    return (epochMs / PERIOD_MS + 1) * PERIOD_MS;
  }

  private static void sleepUntil(long epochMs) throws InterruptedException {
    Thread.sleep(Math.max(0, epochMs - System.currentTimeMillis()));
  }
}
