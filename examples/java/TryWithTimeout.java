// Try to take a lock for at most two seconds; do something else when it stays taken.
// Usage: java -cp dlock-0.1.0.jar TryWithTimeout.java [redis://host:port]
import io.dlock.DLock;
import io.dlock.DLockClient;
import java.util.concurrent.TimeUnit;

public class TryWithTimeout {
  public static void main(String[] args) throws InterruptedException {
    String url = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
    try (DLockClient client = DLockClient.connect(url)) {
      DLock lock = client.getLock("cache-rebuild");
      if (lock.tryLock(2, TimeUnit.SECONDS)) {
        try {
          System.out.println("rebuilding the cache");
        } finally {
          lock.unlock();
        }
      } else {
        System.out.println("someone else is rebuilding the cache; using the old one");
      }
    }
  }
}
