package io.dlock;

/**
 * Run by {@link ShutdownHookTest} in a fresh JVM: takes a lock with the
 * watchdog's lease and returns from main without closing the client.
 */
public final class ShutdownProbe {
  private ShutdownProbe() {}

  public static void main(String[] args) {
    DLockClient client = DLockClient.connect(args[0]);
    client.getLock(args[1]).lock();
    System.out.println("held");
  }
}
