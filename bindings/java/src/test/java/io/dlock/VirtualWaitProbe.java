package io.dlock;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run by {@link VirtualThreadTest} in a JVM of Java 21 or later with 2
 * carriers: a virtual thread makes one primitive unavailable, N virtual
 * threads wait on it in its blocking form, and the holder, after a sleep
 * (which unmounts it, so it needs a carrier again), lets go. A wait that
 * pinned its carrier in native code would leave the holder none: nobody would
 * finish. Prints "finished=F of=N elapsedMs=E".
 *
 * <p>Arguments: redis URL, "readers" (the read side of a read-write lock
 * whose write side is held), "semaphore", "permits", "latch" or "multilock",
 * and N. Compiled for Java 17: virtual threads are reached through reflection.
 */
public final class VirtualWaitProbe {
  private static final long HOLD_MILLIS = 300;
  private static final long DEADLINE_MILLIS = 30_000;

  /** One primitive: made unavailable by hold(), available again by letGo(). */
  private interface Blocked {
    void hold() throws Exception;

    void letGo() throws Exception;

    /** Waits for it in the blocking form, then gives back what it took. */
    void waitAndGiveBack() throws Exception;
  }

  private VirtualWaitProbe() {}

  public static void main(String[] args) throws Exception {
    int waiters = Integer.parseInt(args[2]);
    Object virtualBuilder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
    AtomicInteger finished = new AtomicInteger();
    long begin = System.nanoTime();
    try (DLockClient client = DLockClient.connect(args[0])) {
      Blocked blocked = blocked(client, args[1], "virtual-waits-" + args[1]);
      Thread holder = (Thread) start.invoke(virtualBuilder, (Runnable) () -> run(() -> {
        blocked.hold();
        Thread.sleep(HOLD_MILLIS * 2);  // the waiters start meanwhile
        blocked.letGo();
      }));
      Thread.sleep(HOLD_MILLIS);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < waiters; i++) {
        threads.add((Thread) start.invoke(virtualBuilder, (Runnable) () -> run(() -> {
          blocked.waitAndGiveBack();
          finished.incrementAndGet();
        })));
      }
      long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
      holder.join(DEADLINE_MILLIS);
      for (Thread thread : threads) {
        thread.join(Math.max(1, deadline - System.currentTimeMillis()));
      }
      System.out.println("finished=" + finished.get() + " of=" + waiters
          + " elapsedMs=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }
    // Threads still waiting (a failed run) must not keep this JVM alive.
    System.exit(0);
  }

  private static Blocked blocked(DLockClient client, String kind, String name) {
    switch (kind) {
      case "readers": {
        DReadWriteLock rw = client.getReadWriteLock(name);
        return new Blocked() {
          public void hold() {
            rw.writeLock().lock();
          }

          public void letGo() {
            rw.writeLock().unlock();
          }

          public void waitAndGiveBack() {
            rw.readLock().lock();
            rw.readLock().unlock();
          }
        };
      }
      case "semaphore": {
        DSemaphore semaphore = client.getSemaphore(name);
        semaphore.trySetPermits(1);
        return new Blocked() {
          public void hold() throws InterruptedException {
            semaphore.acquire();
          }

          public void letGo() {
            semaphore.release();
          }

          public void waitAndGiveBack() throws InterruptedException {
            semaphore.acquire();
            semaphore.release();
          }
        };
      }
      case "permits": {
        DPermitExpirableSemaphore permits = client.getPermitExpirableSemaphore(name);
        permits.trySetPermits(1);
        String[] held = new String[1];
        return new Blocked() {
          public void hold() throws InterruptedException {
            held[0] = permits.acquire();
          }

          public void letGo() {
            permits.release(held[0]);
          }

          public void waitAndGiveBack() throws InterruptedException {
            permits.release(permits.acquire());
          }
        };
      }
      case "latch": {
        DCountDownLatch latch = client.getCountDownLatch(name);
        return new Blocked() {
          public void hold() {
            latch.trySetCount(1);
          }

          public void letGo() {
            latch.countDown();
          }

          public void waitAndGiveBack() throws InterruptedException {
            latch.await();
          }
        };
      }
      case "multilock": {
        DLock member = client.getLock(name + "-b");
        DMultiLock group = new DMultiLock(client.getLock(name + "-a"), client.getLock(name + "-b"));
        return new Blocked() {
          public void hold() {
            member.lock();
          }

          public void letGo() {
            member.unlock();
          }

          public void waitAndGiveBack() {
            group.lock();
            group.unlock();
          }
        };
      }
      default:
        throw new IllegalArgumentException("kind: " + kind);
    }
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  private static void run(Step step) {
    try {
      step.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
