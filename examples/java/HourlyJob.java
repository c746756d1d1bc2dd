// A job every node starts each hour (e.g. from cron) that must run once per hour.
// The resource it writes, here a file, keeps the highest fencing token it has
// accepted and refuses older ones, so a node that lost its lock (paused,
// partitioned) cannot overwrite a newer holder's work.
// Usage: java -cp dlock-0.1.0.jar HourlyJob.java [redis://host:port] [state-file]
import io.dlock.DLock;
import io.dlock.DLockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public class HourlyJob {
  // The fenced resource: "<hour> <token>" of the last report written.
  static void writeReport(Path state, long hour, long token) throws IOException {
    long doneHour = -1;
    long lastToken = 0;
    if (Files.exists(state)) {
      String[] fields = Files.readString(state).trim().split(" ");
      doneHour = Long.parseLong(fields[0]);
      lastToken = Long.parseLong(fields[1]);
    }
    if (token < lastToken) {
      throw new IllegalStateException("stale token " + token + " refused");
    }
    if (doneHour == hour) {
      System.out.println("hour " + hour + " already reported");
      return;
    }
    Files.writeString(state, hour + " " + token + "\n");
    System.out.println("report for hour " + hour + " written with token " + token);
  }

  public static void main(String[] args) throws IOException {
    String url = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
    Path state = Path.of(args.length > 1 ? args[1] : "hourly-report.state");
    try (DLockClient client = DLockClient.connect(url)) {
      DLock lock = client.getLock("hourly-report");
      if (!lock.tryLock()) {
        System.out.println("another node is writing the report");
        return;
      }
      try {
        writeReport(state, System.currentTimeMillis() / 3_600_000, lock.getFencingToken());
      } finally {
        lock.unlock();
      }
    }
  }
}
