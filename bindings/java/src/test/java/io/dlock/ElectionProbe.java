package io.dlock;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run by {@link DElectionTest} in a JVM of Java 21 or later with 2 carriers
 * ({@link TwoCarriers}): N virtual threads, each with a candidate of its own,
 * campaign for one name at once; each leader holds a few ms (a sleep, which
 * unmounts it, so it needs a carrier again to resign), then resigns. A
 * campaign that pinned its carrier in native code would leave the leader
 * none: nobody would finish. Prints "finished=F of=N leaders=L
 * overlaps=O increasing=true|false elapsedMs=E".
 *
 * <p>Arguments: redis URL, "campaign", N. Compiled for Java 17: virtual
 * threads are reached through reflection.
 */
public final class ElectionProbe {
  private static final long HOLD_MILLIS = 2;
  private static final long DEADLINE_MILLIS = 40_000;

  private ElectionProbe() {}

  public static void main(String[] args) throws Exception {
    int candidates = Integer.parseInt(args[2]);
    Object virtualBuilder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
    AtomicInteger finished = new AtomicInteger();
    AtomicInteger leading = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    List<Long> terms = new ArrayList<>();
    long begin = System.nanoTime();
    try (DLockClient client = DLockClient.connect(args[0])) {
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < candidates; i++) {
        String value = "candidate-" + i;
        threads.add((Thread) start.invoke(virtualBuilder, (Runnable) () -> {
          try (DElection election = client.getElection("virtual-election")) {
            long term = election.campaign(value);
            if (leading.incrementAndGet() != 1) {
              overlaps.incrementAndGet();
            }
            synchronized (terms) {
              terms.add(term);
            }
            Thread.sleep(HOLD_MILLIS);
            leading.decrementAndGet();
            election.resign();
            finished.incrementAndGet();
          } catch (Exception e) {
            e.printStackTrace();
          }
        }));
      }
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      for (Thread thread : threads) {
        thread.join(Math.max(1, deadline - System.currentTimeMillis()));
      }
      boolean increasing = true;
      synchronized (terms) {
        for (int i = 1; i < terms.size(); i++) {
          increasing &= terms.get(i) > terms.get(i - 1);
        }
      }
      System.out.println("finished=" + finished.get() + " of=" + candidates + " leaders=" + terms.size()
          + " overlaps=" + overlaps.get() + " increasing=" + increasing
          + " elapsedMs=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }
    // Threads still waiting (a failed run) must not keep this JVM alive.
    System.exit(0);
  }
}
