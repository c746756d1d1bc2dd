package check;

import io.dlock.DLock;
import io.dlock.DLockClient;

/** Takes a lock through the installed jar and prints its fencing token. */
public final class Consumer {
  private Consumer() {}

  public static void main(String[] args) {
    try (DLockClient client = DLockClient.connect(args[0])) {
      DLock lock = client.getLock("check-jar");
      lock.lock();
      try {
        System.out.println("token " + lock.getFencingToken());
      } finally {
        lock.unlock();
      }
    }
  }
}
