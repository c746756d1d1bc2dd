package check;

import io.dlock.DLock;
import io.dlock.DLockClient;
import io.dlock.DLockException;

/**
 * Takes a lock through the installed jar on the first URL and prints its fencing token; then
 * opens each further URL, one of a backend the jar lacks, and prints its refusal.
 */
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
    for (int i = 1; i < args.length; i++) {
      try (DLockClient opened = DLockClient.connect(args[i])) {
        throw new IllegalStateException("the jar opened " + args[i]);
      } catch (DLockException refused) {
        System.out.println("refused: " + refused.getStatus() + ": " + refused.getMessage());
      }
    }
  }
}
