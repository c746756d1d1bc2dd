// Guard a critical section: one process at a time, on any machine, runs it.
// Usage: java -cp dlock-0.1.0.jar CriticalSection.java [redis://host:port]
import io.dlock.DLock;
import io.dlock.DLockClient;

public class CriticalSection {
  public static void main(String[] args) {
    String url = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
    try (DLockClient client = DLockClient.connect(url)) {
      DLock lock = client.getLock("inventory");
      lock.lock(); // waits as long as it takes
      try {
        System.out.println("holding 'inventory' with fencing token " + lock.getFencingToken());
        // ... the critical section ...
      } finally {
        lock.unlock();
      }
    }
  }
}
