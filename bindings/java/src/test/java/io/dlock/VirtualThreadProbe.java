package io.dlock;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run by {@link VirtualThreadTest} in a JVM of Java 21 or later with few
 * carrier threads: virtual threads take one lock in turn, each section
 * sleeping (which unmounts the holder, so it needs a carrier again to unlock),
 * and the probe prints what happened as key=value pairs.
 *
 * <p>Arguments: redis URL, "tryLock" (tryLock with a 10 s wait) or "lock",
 * number of threads, rounds per thread. Or redis URL, "turn": one virtual
 * thread waits 300 ms for {@link #TURN_LOCK}, then tries it without a wait. Compiled for Java 17, so virtual
 * threads are reached through reflection on the public Thread.Builder.
 */
public final class VirtualThreadProbe {
  private static final long SECTION_MILLIS = 5;
  private static final long DEADLINE_MILLIS = 30_000;

  static final String TURN_LOCK = "virtual-threads-turn";

  private VirtualThreadProbe() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    if (args[1].equals("turn")) {
      turn(url);
      System.exit(0);
    }
    boolean plainLock = args[1].equals("lock");
    int threads = Integer.parseInt(args[2]);
    int rounds = Integer.parseInt(args[3]);
    Object virtualBuilder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);

    List<SectionChecker.Section> sections = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger timedOut = new AtomicInteger();
    long begin = System.nanoTime();
    try (DLockClient client = DLockClient.connect(url)) {
      DLock lock = client.getLock("virtual-threads-" + args[1]);
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String holder = "virtual-" + t;
        Runnable work = () -> {
          for (int round = 0; round < rounds; round++) {
            if (!take(lock, plainLock)) {
              timedOut.incrementAndGet();
              continue;
            }
            try {
              long entered = System.nanoTime();
              long token = lock.getFencingToken();
              sleep(SECTION_MILLIS);
              sections.add(new SectionChecker.Section(holder, token, entered, System.nanoTime()));
            } finally {
              lock.unlock();
            }
          }
        };
        workers.add((Thread) start.invoke(virtualBuilder, work));
      }
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      int finished = 0;
      for (Thread worker : workers) {
        worker.join(Math.max(1, deadline - System.currentTimeMillis()));
        finished += worker.isAlive() ? 0 : 1;
      }
      List<String> violations = SectionChecker.violations(sections);
      System.out.println("attempts=" + threads * rounds + " acquired=" + sections.size()
          + " timedOut=" + timedOut.get() + " finished=" + finished + " of=" + threads
          + " violations=" + violations.size()
          + " elapsedMs=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
      violations.forEach(System.out::println);
    }
    // Threads still waiting (a failed run) must not keep this JVM alive.
    System.exit(0);
  }

  /** Prints whether a short wait, then a try, took the lock (a test set another's turn on it). */
  private static void turn(String url) throws Exception {
    Object virtualBuilder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
    try (DLockClient client = DLockClient.connect(url)) {
      DLock lock = client.getLock(TURN_LOCK);
      String[] outcome = new String[2];
      Runnable work = () -> {
        try {
          outcome[0] = Boolean.toString(lock.tryLock(300, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
          outcome[0] = "interrupted";
        }
        outcome[1] = Boolean.toString(lock.tryLock());
      };
      Thread worker = (Thread) start.invoke(virtualBuilder, work);
      worker.join(DEADLINE_MILLIS);
      System.out.println("attempts=2 waited=" + outcome[0] + " tried=" + outcome[1]);
    }
  }

  private static boolean take(DLock lock, boolean plainLock) {
    if (plainLock) {
      lock.lock();
      return true;
    }
    try {
      return lock.tryLock(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
