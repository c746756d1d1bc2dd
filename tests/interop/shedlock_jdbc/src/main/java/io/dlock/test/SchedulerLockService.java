package io.dlock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * A Spring service with one {@code @SchedulerLock} job, as a user writes it:
 * {@code @EnableScheduling}, {@code @EnableSchedulerLock}, ShedLock's
 * JdbcTemplateLockProvider with usingDbTime() on the table {@code shedlock},
 * and a {@code @Scheduled} method tried every second whose lock is kept
 * {@code lockAtLeastFor} = PERIOD_MS from its grant. The other side of
 * tests/test_sql_shedlock.cpp's cron'd {@code dlock run --hold-after-success}.
 *
 * <pre>
 * SchedulerLockService JDBC_URL USER PASSWORD NAME PERIOD_MS JOB_MS UNTIL_UNIX_MS RUNS_FILE
 * </pre>
 *
 * Each run of the job appends one line "spring START_NS END_NS" to RUNS_FILE,
 * Unix time in nanoseconds (the clock the periods of {@code dlock run} are
 * aligned to, and the one a shell job can read with {@code date +%s%N}), the
 * run lasting JOB_MS. The service stops at UNTIL_UNIX_MS, letting a run under
 * way finish, and prints "runs N".
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
public class SchedulerLockService {
  public static void main(String[] args) throws Exception {
    System.setProperty("job.url", args[0]);
    System.setProperty("job.user", args[1]);
    System.setProperty("job.password", args[2]);
    System.setProperty("job.name", args[3]);
    System.setProperty("job.lockAtLeastFor", Duration.ofMillis(Long.parseLong(args[4])).toString());
    System.setProperty("job.ms", args[5]);
    System.setProperty("job.runs", args[7]);
    long until = Long.parseLong(args[6]);
    try (AnnotationConfigApplicationContext context =
             new AnnotationConfigApplicationContext(SchedulerLockService.class)) {
      System.out.println("scheduled");
      System.out.flush();
      long left;
      while ((left = until - System.currentTimeMillis()) > 0) Thread.sleep(Math.min(left, 100));
      System.out.println("runs " + context.getBean(Job.class).runs());
    }
  }

  @Bean
  public DataSource dataSource(@Value("${job.url}") String url, @Value("${job.user}") String user,
      @Value("${job.password}") String password) {
    return new DriverManagerDataSource(url, user, password);
  }

  @Bean
  public LockProvider lockProvider(DataSource dataSource) {
    return new JdbcTemplateLockProvider(
        JdbcTemplateLockProvider.Configuration.builder()
            .withJdbcTemplate(new JdbcTemplate(dataSource))
            .withTableName("shedlock")
            .usingDbTime()
            .build());
  }

  // Closing the context lets a run under way finish, so every run is logged.
  @Bean
  public ThreadPoolTaskScheduler taskScheduler() {
    ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
    scheduler.setWaitForTasksToCompleteOnShutdown(true);
    scheduler.setAwaitTerminationSeconds(30);
    return scheduler;
  }

  @Bean
  public Job job(@Value("${job.ms}") long jobMs, @Value("${job.runs}") String runsFile) {
    return new Job(jobMs, Paths.get(runsFile));
  }

  public static class Job {
    private final long jobMs;
    private final Path runsFile;
    private volatile int runs;

    Job(long jobMs, Path runsFile) {
      this.jobMs = jobMs;
      this.runsFile = runsFile;
    }

    @Scheduled(cron = "* * * * * *")
    @SchedulerLock(name = "${job.name}", lockAtLeastFor = "${job.lockAtLeastFor}")
    public void run() throws IOException, InterruptedException {
      long start = unixNanos();
      Thread.sleep(jobMs);
      String line = "spring " + start + " " + unixNanos() + "\n";
      // One write with O_APPEND: lines of both sides never mix.
      Files.write(runsFile, line.getBytes(StandardCharsets.US_ASCII), StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      ++runs;
    }

    public int runs() {
      return runs;
    }

    private static long unixNanos() {
      Instant now = Instant.now();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
  }
}
