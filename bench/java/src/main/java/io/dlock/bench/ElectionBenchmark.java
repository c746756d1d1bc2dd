package io.dlock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * dlock's DElection vs Spring Integration's LockRegistryLeaderInitiator over
 * its RedisLockRegistry (spring-integration-redis 6.4.3, Lettuce), against one
 * Redis, in one run:
 *   java -cp dlock-bench.jar io.dlock.bench.ElectionBenchmark REDIS_URL
 * Three candidates, each a JVM of its own (ElectionCandidate), campaign for one
 * leadership. Prints, for each system:
 * <ul>
 *   <li>resign -> new leader: from the leader's call (dlock resign(), Spring
 *       Context.yield() or its initiator's stop()) to another candidate's grant
 *       (its campaign returning, its Candidate.onGranted), p50/p99 over HANDOVERS;
 *   <li>crash -> new leader: from the leader JVM's SIGKILL to another
 *       candidate's grant, with a 5 s lease on both (dlock's watchdog timeout,
 *       RedisLockRegistry's expireAfter), p50/max over CRASHES;
 * </ul>
 * and the ratios, and whether each gives the leader a term a resource can check.
 */
public final class ElectionBenchmark {
  private static final int CANDIDATES = 3;
  private static final int WARMUP_HANDOVERS = 10;
  /** -Ddlock.bench.handovers=N, -Ddlock.bench.crashes=N for a shorter run. */
  private static final int HANDOVERS = Integer.getInteger("dlock.bench.handovers", 100);
  private static final int CRASHES = Integer.getInteger("dlock.bench.crashes", 5);
  /**
   * How long each leader leads before it resigns: LEAD_MILLIS plus up to LEAD_SPREAD_MILLIS, drawn
   * anew each time (fixed seed), so that the resignation lands anywhere in Spring's polling periods
   * (heartBeatMillis 500 for the leader, idleBetweenTries 100 for the waiters) rather than in step
   * with them; the others are back to waiting by then.
   */
  private static final long LEAD_MILLIS = 100;
  private static final int LEAD_SPREAD_MILLIS = 500;
  private static final long EVENT_TIMEOUT_SECONDS = 60;

  /** A line a candidate printed, with which candidate. */
  private record Event(int candidate, String kind, long nanos, long term) {}

  /** Resign -> new leader: latencies (ns, sorted), and how often the resigner was granted again first. */
  record Handovers(long[] nanos, int selfRegrants, boolean termsRose) {}

  private ElectionBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 5 && args[0].equals("candidate")) {
      ElectionCandidate.run(args[1], args[2], args[3], args[4]);
      return;
    }
    if (args.length != 1) {
      System.err.println("usage: java -cp dlock-bench.jar io.dlock.bench.ElectionBenchmark redis://127.0.0.1:PORT");
      System.exit(2);
    }
    String url = args[0];
    System.out.println("Redis " + url + "; " + CANDIDATES + " candidates, each a JVM of its own; lease 5 s"
        + " (dlock watchdogTimeout, RedisLockRegistry expireAfter); Spring Integration 6.4.3"
        + " LockRegistryLeaderInitiator (heartBeatMillis 500, busyWaitMillis 50: its defaults)"
        + " over RedisLockRegistry (Lettuce 6.4.1)");

    System.out.println("resign -> new leader (" + HANDOVERS + " hand-overs after " + WARMUP_HANDOVERS
        + ", each leader leads " + LEAD_MILLIS + "-" + (LEAD_MILLIS + LEAD_SPREAD_MILLIS) + " ms first):");
    Handovers dlock = handovers(ElectionCandidate.DLOCK, "resign", url);
    Handovers springYield = handovers(ElectionCandidate.SPRING, "resign", url);
    Handovers springStop = handovers(ElectionCandidate.SPRING, "stop", url);
    Handovers pubsubStop = handovers(ElectionCandidate.SPRING_PUBSUB, "stop", url);
    printHandovers("dlock resign()", dlock);
    printHandovers("spring yield()", springYield);
    printHandovers("spring stop()", springStop);
    printHandovers("spring-pubsub stop()", pubsubStop);
    for (Handovers spring : List.of(springYield, springStop, pubsubStop)) {
      String label = spring == springYield ? "spring yield()" : spring == springStop ? "spring stop()"
          : "spring-pubsub stop()";
      System.out.printf("  ratio %s/dlock: p50 %.1fx, p99 %.1fx (above 1: dlock hands over faster)%n", label,
          percentile(spring.nanos(), 0.50) / percentile(dlock.nanos(), 0.50),
          percentile(spring.nanos(), 0.99) / percentile(dlock.nanos(), 0.99));
    }

    System.out.println("crash (SIGKILL of the leader's JVM) -> new leader, lease 5 s (" + CRASHES + " trials):");
    long[] dlockCrash = crashes(ElectionCandidate.DLOCK, url);
    long[] springCrash = crashes(ElectionCandidate.SPRING, url);
    printCrashes("dlock", dlockCrash);
    printCrashes("spring", springCrash);
    System.out.printf("  ratio spring/dlock: p50 %.2fx, max %.2fx%n",
        percentile(springCrash, 0.50) / percentile(dlockCrash, 0.50),
        percentile(springCrash, 1.0) / percentile(dlockCrash, 1.0));

    System.out.println("notes:");
    System.out.println("  term (fencing token) a resource can check: dlock yes (campaign() returns it; every term"
        + " granted here rose: " + dlock.termsRose() + "); Spring no (Context has isLeader() and yield() only)");
    System.out.println("  Spring's busyWaitMillis is 50 ms by default (DEFAULT_BUSY_WAIT_TIME): the 'lowered to"
        + " 50 ms' run is the default run. Its yield() is seen by the leader's selector only after its"
        + " heartBeatMillis (500 ms) sleep; its waiters poll every idleBetweenTries (100 ms) with SPIN_LOCK"
        + " (the default), or are woken by the unlock message with PUB_SUB_LOCK ('spring-pubsub')");
  }

  /** Starts CANDIDATES fresh JVMs of {@code kind} into {@code candidates} and waits until each is ready. */
  private static void startCandidates(String kind, String url, String name, Inbox events, List<Candidate> candidates)
      throws Exception {
    for (int c = 0; c < CANDIDATES; c++) {
      candidates.add(Candidate.start(kind, url, name, c, events));
    }
    awaitReady(events, CANDIDATES);
  }

  /** Resign -> new leader, HANDOVERS times after a warm-up, among CANDIDATES fresh JVMs of {@code kind}. */
  private static Handovers handovers(String kind, String order, String url) throws Exception {
    String name = "bench-election-handover-" + kind + "-" + order + "-" + System.nanoTime();
    Inbox events = new Inbox();
    List<Candidate> candidates = new ArrayList<>();
    try {
      startCandidates(kind, url, name, events, candidates);
      Event granted = events.next("@granted");
      int leader = granted.candidate();
      long lastTerm = granted.term();
      boolean termsRose = true;
      long[] latencies = new long[HANDOVERS];
      int selfRegrants = 0;
      Random leads = new Random(42);
      for (int h = 0; h < WARMUP_HANDOVERS + HANDOVERS; h++) {
        TimeUnit.MILLISECONDS.sleep(LEAD_MILLIS + leads.nextInt(LEAD_SPREAD_MILLIS));
        candidates.get(leader).send(order);
        long resigned = events.next("@resigning").nanos();
        while (true) {
          granted = events.next("@granted");
          termsRose &= granted.term() > lastTerm;
          lastTerm = granted.term();
          if (granted.candidate() != leader) {
            break;
          }
          // Spring: the yielding leader's selector took the lock again before the others (it tries
          // again busyWaitMillis after yielding; they poll). Yield again: the clock runs on.
          selfRegrants += h >= WARMUP_HANDOVERS ? 1 : 0;
          candidates.get(leader).send(order);
          events.next("@resigning");
        }
        if (order.equals("stop")) {
          candidates.get(leader).send("start"); // a candidate again, behind the new leader
        }
        leader = granted.candidate();
        if (h >= WARMUP_HANDOVERS) {
          latencies[h - WARMUP_HANDOVERS] = granted.nanos() - resigned;
        }
      }
      Arrays.sort(latencies);
      return new Handovers(latencies, selfRegrants, termsRose);
    } finally {
      for (Candidate candidate : candidates) {
        candidate.close();
      }
    }
  }

  /** Crash -> new leader, CRASHES times: the leader's JVM is killed, a fresh one takes its place. */
  private static long[] crashes(String kind, String url) throws Exception {
    String name = "bench-election-crash-" + kind + "-" + System.nanoTime();
    Inbox events = new Inbox();
    List<Candidate> candidates = new ArrayList<>();
    try {
      startCandidates(kind, url, name, events, candidates);
      int leader = events.next("@granted").candidate();
      long[] latencies = new long[CRASHES];
      for (int t = 0; t < CRASHES; t++) {
        // Lead a while first, a different while each trial: the kill lands at another point of the
        // lease's renewal period (dlock's watchdog, Spring's heartbeat).
        TimeUnit.MILLISECONDS.sleep(1_000 + 370L * t);
        long killed = System.nanoTime();
        candidates.get(leader).kill();
        Event granted = events.next("@granted");
        latencies[t] = granted.nanos() - killed;
        // A fresh candidate in the killed one's place, waiting behind the new leader.
        candidates.set(leader, Candidate.start(kind, url, name, leader, events));
        awaitReady(events, 1);
        leader = granted.candidate();
      }
      Arrays.sort(latencies);
      return latencies;
    } finally {
      for (Candidate candidate : candidates) {
        candidate.close();
      }
    }
  }

  private static void awaitReady(Inbox events, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      events.next("@ready");
    }
  }

  /**
   * The candidates' events. Each candidate's arrive in its order, but two candidates' may arrive
   * in either order (the new leader's grant before the old one's "resigning"): next() takes the
   * first of a kind, keeping the others for later.
   */
  private static final class Inbox {
    private final BlockingQueue<Event> arrived = new LinkedBlockingQueue<>();
    private final List<Event> kept = new ArrayList<>();

    void add(Event event) {
      arrived.add(event);
    }

    Event next(String kind) throws InterruptedException {
      for (int i = 0; i < kept.size(); i++) {
        if (kept.get(i).kind().equals(kind)) {
          return kept.remove(i);
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_TIMEOUT_SECONDS);
      while (true) {
        Event event = arrived.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (event == null) {
          throw new IllegalStateException("no " + kind + " within " + EVENT_TIMEOUT_SECONDS + " s; kept " + kept);
        }
        if (event.kind().equals(kind)) {
          return event;
        }
        kept.add(event);
      }
    }
  }

  private static void printHandovers(String label, Handovers result) {
    System.out.printf("  %-22s p50 %9.2f ms   p99 %9.2f ms   max %9.2f ms   (%d hand-overs%s)%n", label,
        percentile(result.nanos(), 0.50), percentile(result.nanos(), 0.99), percentile(result.nanos(), 1.0),
        result.nanos().length,
        result.selfRegrants() > 0 ? "; the resigner re-granted first " + result.selfRegrants() + " times" : "");
  }

  private static void printCrashes(String label, long[] latencies) {
    StringBuilder all = new StringBuilder();
    for (long latency : latencies) {
      all.append(all.length() == 0 ? "" : " ").append(String.format("%.2f", latency / 1e9));
    }
    System.out.printf("  %-22s p50 %6.2f s   max %6.2f s   (all: %s s)%n", label,
        percentile(latencies, 0.50) / 1e3, percentile(latencies, 1.0) / 1e3, all);
  }

  /** The p-th percentile (0..1) of sorted nanoseconds, in milliseconds. */
  private static double percentile(long[] sorted, double p) {
    return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
  }

  /** A candidate's JVM: orders to its standard input, its events read into the shared queue. */
  private static final class Candidate {
    private final Process process;
    private final Writer orders;

    private Candidate(Process process) {
      this.process = process;
      this.orders = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    static Candidate start(String kind, String url, String name, int index, Inbox events)
        throws IOException {
      Process process = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp", System.getProperty("java.class.path"), ElectionBenchmark.class.getName(),
              "candidate", kind, url, name, "candidate-" + index)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      Thread reader = new Thread(() -> {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = out.readLine()) != null; ) {
            if (!line.startsWith("@")) {
              continue; // not an event (a library's own output)
            }
            String[] f = line.split(" ");
            events.add(new Event(index, f[0], f.length > 1 ? Long.parseLong(f[1]) : System.nanoTime(),
                f.length > 2 ? Long.parseLong(f[2]) : 0));
          }
        } catch (IOException ended) {
          // The process was killed.
        }
      }, "candidate-" + index + "-events");
      reader.setDaemon(true);
      reader.start();
      return new Candidate(process);
    }

    void send(String order) throws IOException {
      orders.write(order + "\n");
      orders.flush();
    }

    void kill() throws InterruptedException {
      process.destroyForcibly(); // SIGKILL: nothing released
      process.waitFor();
    }

    /** Ends its input (it closes, resigning); killed if it has not exited within 10 s. */
    void close() throws InterruptedException {
      try {
        orders.close();
      } catch (IOException gone) {
        // Already exited.
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor();
      }
    }
  }
}
