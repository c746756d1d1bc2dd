package io.dlock.shedlock;

import io.dlock.DLockClient;
import java.nio.file.Path;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A Spring Boot application whose {@code @Scheduled} job is guarded by
 * ShedLock's {@code @SchedulerLock} on dlock's {@link DLockLockProvider}, as
 * docs/java-integrations.md sets it up: every 2 s (periods aligned to the Unix
 * epoch, as {@code dlock run --hold-after-success 2s} counts them), the lock
 * named as the job kept for 1.7 s after the run started.
 * Properties: {@code dlock.url}, {@code report.log} (the job's {@link JobLog}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10S")
class ReportApplication {
  static final String JOB = "report";

  @Bean(destroyMethod = "close")
  DLockClient dlockClient(@Value("${dlock.url}") String url) {
    return DLockClient.connect(url);
  }

  @Bean
  LockProvider lockProvider(DLockClient client) {
    return new DLockLockProvider(client);
  }

  @Bean
  Report report(DLockClient client, @Value("${report.log}") Path log) {
    return new Report(client, new JobLog(log));
  }

  /** The job: its runs are recorded with their fencing token, as a resource would see them. */
  static class Report {
    private final DLockClient client;
    private final JobLog log;

    Report(DLockClient client, JobLog log) {
      this.client = client;
      this.log = log;
    }

    @Scheduled(cron = "*/2 * * * * *", zone = "UTC")
    @SchedulerLock(name = JOB, lockAtMostFor = "PT10S", lockAtLeastFor = "PT1.7S")
    public void run() throws InterruptedException {
      long token = client.getLock(JOB).getFencingToken();
      log.append("start", token, "spring");
      Thread.sleep(300);
      log.append("end", token, "spring");
    }
  }
}
