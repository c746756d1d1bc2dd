package io.dlock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The clients not yet closed. A JVM shutdown hook closes them, which releases
 * the locks they hold, so other processes need not wait for the leases to
 * run out (Python's binding does the same at exit).
 */
final class OpenClients {
  private static final Set<DLockClient> OPEN = ConcurrentHashMap.newKeySet();

  static {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(OpenClients::closeAll, "dlock-shutdown"));
    } catch (IllegalStateException shuttingDown) {
      // The JVM is exiting already; the leases will run out on their own.
    }
  }

  private OpenClients() {}

  static void add(DLockClient client) {
    OPEN.add(client);
  }

  static void remove(DLockClient client) {
    OPEN.remove(client);
  }

  private static void closeAll() {
    OPEN.forEach(DLockClient::close);
  }
}
