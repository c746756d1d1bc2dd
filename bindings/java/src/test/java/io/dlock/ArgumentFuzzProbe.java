package io.dlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link ArgumentFuzzTest} in a fresh JVM, so that a crash fails the
 * test with the call that made it: calls every public method with hostile
 * arguments, printing each call and its arguments before making it.
 *
 * <p>Arguments: seed, calls, name prefix, the victims' names (lock, fair lock,
 * read-write lock, semaphore, permit semaphore, latch), the victim permit's
 * id, the victim's thread id, and three server URLs. Victims are reached only
 * with waits that end at once, and never through a call that releases
 * whoever holds (forceUnlock, the permit's exact id). Exit 0 after "done";
 * exit 3 for an exception of a type the API does not document.
 */
public final class ArgumentFuzzProbe {
  private static final String[] TEXT = {
    "", "\0", "a\0", "\0a", "\uD800", "a\uDFFF", "\uDC80\uD800", "x".repeat(1025), "é".repeat(600),
    "y".repeat(200_000), "{", "}", "{}", "a{}b", "\u2028", "\uD83D\uDD12", null,
  };
  private static final long[] LONGS = {
    0, -1, -2, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
    Long.MAX_VALUE / 1000, 365L * 24 * 3600 * 1000 + 1,
  };
  // Waits that end at once whatever the unit: a long wait is valid, not hostile.
  private static final long[] WAITS = {0, -1, -2, Integer.MIN_VALUE, Long.MIN_VALUE};
  private static final TimeUnit[] UNITS = {
    TimeUnit.NANOSECONDS, TimeUnit.MILLISECONDS, TimeUnit.SECONDS, TimeUnit.DAYS, null,
  };

  private final Random random;
  private final String prefix;
  private final Map<String, String> victims;
  private final String permitId;
  private final long victimThread;
  private final List<DLockClient> clients = new ArrayList<>();
  private final DLockClient closed;
  private final String url;
  private final List<String> drawn = new ArrayList<>();

  private ArgumentFuzzProbe(long seed, String[] args) {
    random = new Random(seed);
    prefix = args[2];
    victims = new LinkedHashMap<>();
    String[] kinds = {"lock", "fair", "rw", "semaphore", "permits", "latch"};
    for (int i = 0; i < kinds.length; i++) {
      victims.put(kinds[i], args[3 + i]);
    }
    permitId = args[9];
    victimThread = Long.parseLong(args[10]);
    for (String url : Arrays.copyOfRange(args, 11, 14)) {
      clients.add(DLockClient.connect(url));
    }
    url = args[11];
    closed = DLockClient.connect(url);
    closed.close();
  }

  public static void main(String[] args) throws Exception {
    ArgumentFuzzProbe probe = new ArgumentFuzzProbe(Long.parseLong(args[0]), args);
    probe.run(Integer.parseInt(args[1]));
    System.out.println("done");
    System.exit(0);
  }

  // ---- hostile values, each printed as it is drawn

  private <T> T note(T value) {
    String text = String.valueOf(value);
    System.out.println("  " + (text.length() > 60 ? text.substring(0, 40) + "...(" + text.length() + " chars)"
        : text.replace("\0", "\\0")));
    return value;
  }

  private String text(String... extra) {
    String[] pool = Arrays.copyOf(TEXT, TEXT.length + extra.length);
    System.arraycopy(extra, 0, pool, TEXT.length, extra.length);
    return note(pool[random.nextInt(pool.length)]);
  }

  private long anyLong() {
    return note(LONGS[random.nextInt(LONGS.length)]);
  }

  private int anyInt() {
    return (int) anyLong();
  }

  private long waitTime() {
    return note(WAITS[random.nextInt(WAITS.length)]);
  }

  private TimeUnit unit() {
    return note(UNITS[random.nextInt(UNITS.length)]);
  }

  private Duration duration() {
    return note(random.nextInt(5) == 0 ? null : Duration.ofMillis(anyLong()));
  }

  private long threadId() {
    return random.nextBoolean() ? victimThread : anyLong();
  }

  private String name() {
    int choice = random.nextInt(10);
    if (choice < 4) {
      return text();
    }
    return note(choice < 7 ? prefix + "-" + random.nextInt(4) : victims.get("lock"));
  }

  /** Never the victim's exact id: releasing by id is Redisson's documented right. */
  private String permitId() {
    return text(permitId + "\0", "\0" + permitId, permitId.substring(1), permitId + "\uD800",
        permitId.substring(0, 16) + "\0" + permitId.substring(16));
  }

  private DLockClient client() {
    return random.nextInt(8) == 0 ? closed : clients.get(0);
  }

  private boolean isVictim(String name) {
    return victims.containsValue(name);
  }

  // ---- the calls

  private void callClient() {
    switch (random.nextInt(3)) {
      case 0 -> DLockClient.connect(text()).close();
      case 1 -> {
        DLockClientBuilder builder = DLockClient.builder().url(text());
        builder.build().close();
      }
      default -> {
        // The server's own URL: only the option is hostile.
        DLockClientBuilder builder = DLockClient.builder().url(url);
        switch (random.nextInt(6)) {
          case 0 -> builder.connectTimeout(duration());
          case 1 -> builder.commandTimeout(duration());
          case 2 -> builder.watchdogTimeout(duration());
          case 3 -> builder.poolSize(anyInt());
          case 4 -> builder.syncReplicas(anyInt());
          default -> builder.syncTimeout(duration());
        }
        try {
          builder.build().close();
        } catch (DLockException refused) {
          // A valid timeout of a millisecond may be too short to connect.
          if (refused.getStatus() != DLockStatus.CONNECTION) {
            throw refused;
          }
        }
      }
    }
  }

  private List<DLock> locks() {
    DLockClient client = client();
    int kind = random.nextInt(3);
    String own = prefix + "-" + kind;
    String victim = victims.get(new String[] {"lock", "fair", "rw"}[kind]);
    String name = note(random.nextBoolean() ? own : victim);
    return switch (kind) {
      case 0 -> List.of(client.getLock(name));
      case 1 -> List.of(client.getFairLock(name));
      default -> {
        DReadWriteLock rw = client.getReadWriteLock(name);
        rw.setWriterPreference(random.nextBoolean());
        yield List.of(rw.readLock(), rw.writeLock());
      }
    };
  }

  private void callLock() throws Exception {
    for (DLock lock : locks()) {
      switch (random.nextInt(19)) {
        case 0 -> lock.tryLock();
        case 1 -> lock.tryLock(waitTime(), unit());
        case 2 -> lock.tryLock(waitTime(), anyLong(), unit());
        case 3 -> lock.unlock();
        case 4 -> lock.unlockKeeping(anyLong(), unit());
        case 5 -> lock.extend(anyLong(), unit());
        case 6 -> lock.countAttempt(text(), anyLong(), unit(), anyLong());
        case 7 -> lock.inspect();
        case 8 -> lock.isLocked();
        case 9 -> lock.isHeldByThread(threadId());
        case 10 -> lock.getFencingToken();
        case 11 -> lock.remainTimeToLive();
        case 12 -> {
          if (!isVictim(lock.getName())) {
            lock.forceUnlock();
          }
        }
        case 13 -> {
          try (LockHold hold = lock.tryAcquire(waitTime(), anyLong(), unit())) {
            note(hold);
          }
        }
        case 14 -> lock.setLostListener(random.nextBoolean() ? null : (name, owner, token) -> { });
        case 15 -> lock.newCondition();
        case 16 -> awaitFuture(lock.tryLockAsync(waitTime(), anyLong(), unit(), threadId()));
        case 17 -> awaitFuture(lock.unlockAsync(threadId()));
        default -> awaitFuture(lock.tryLockAsync(threadId()));
      }
    }
  }

  /** A future's failure is thrown as the call's, to be judged as one. */
  private static void awaitFuture(CompletableFuture<?> future) throws Exception {
    try {
      future.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException failed) {
      if (failed.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw failed;
    }
  }

  private void callSemaphore() throws Exception {
    DSemaphore semaphore =
        client().getSemaphore(note(random.nextBoolean() ? victims.get("semaphore") : prefix + "-sem"));
    switch (random.nextInt(6)) {
      case 0 -> semaphore.tryAcquire();
      case 1 -> semaphore.tryAcquire(anyInt(), waitTime(), unit());
      case 2 -> semaphore.release(anyInt());
      case 3 -> semaphore.trySetPermits(anyInt());
      case 4 -> semaphore.availablePermits();
      default -> semaphore.tryAcquire(waitTime(), unit());
    }
  }

  private void callPermitSemaphore() throws Exception {
    DPermitExpirableSemaphore semaphore = client().getPermitExpirableSemaphore(
        note(random.nextBoolean() ? victims.get("permits") : prefix + "-permits"));
    switch (random.nextInt(7)) {
      case 0 -> semaphore.tryAcquire();
      case 1 -> semaphore.tryAcquire(waitTime(), anyLong(), unit());
      case 2 -> semaphore.release(permitId());
      case 3 -> semaphore.tryRelease(permitId());
      case 4 -> semaphore.trySetPermits(anyInt());
      case 5 -> semaphore.availablePermits();
      default -> semaphore.setLostListener(random.nextBoolean() ? null : (name, id) -> { });
    }
  }

  private void callLatch() throws Exception {
    String name = note(random.nextBoolean() ? victims.get("latch") : prefix + "-latch");
    DCountDownLatch latch = client().getCountDownLatch(name);
    switch (random.nextInt(4)) {
      case 0 -> latch.trySetCount(anyLong());
      case 1 -> {
        if (!isVictim(name)) {
          latch.countDown();
        }
      }
      case 2 -> latch.getCount();
      default -> latch.await(waitTime(), unit());
    }
  }

  private void callGroup(boolean red) throws Exception {
    DLock[] members = new DLock[3];
    for (int i = 0; i < members.length; i++) {
      DLockClient client = red ? clients.get(i) : clients.get(0);
      members[i] = client.getLock(note(random.nextBoolean() ? prefix + "-g" + i : victims.get("lock")));
    }
    if (random.nextInt(5) == 0) {
      members[random.nextInt(members.length)] = null;
    }
    try (DLockGroup group = red ? new DRedLock(members) : new DMultiLock(members)) {
      switch (random.nextInt(6)) {
        case 0 -> group.tryLock();
        case 1 -> group.tryLock(waitTime(), anyLong(), unit());
        case 2 -> group.unlock();
        case 3 -> group.getHoldCount();
        case 4 -> group.setLostListener(random.nextBoolean() ? null : (name, owner, token) -> { });
        default -> {
          if (group instanceof DRedLock redLock) {
            redLock.remainingValidity(unit());
          } else {
            group.tryLock(waitTime(), unit());
          }
        }
      }
    }
  }

  /** A candidate of its own (its keys are not the victims'), a few hostile calls, then closed. */
  private void callElection() throws Exception {
    try (DElection election = client().getElection(name())) {
      for (int i = 0; i < 3; i++) {
        switch (random.nextInt(10)) {
          case 0 -> election.campaign(text(), waitTime(), unit());
          case 1 -> election.resign();
          case 2 -> election.proclaim(text());
          case 3 -> election.leader();
          case 4 -> election.isLeader();
          case 5 -> election.term();
          case 6 -> election.setLostListener(random.nextBoolean() ? null : (name, term) -> { });
          case 7 -> election.observe(random.nextBoolean() ? null : leader -> { });
          case 8 -> awaitFuture(election.campaignAsync(text(), waitTime(), unit()));
          default -> election.leaders().subscribe(null);
        }
      }
    }
  }

  private void call(String label) throws Exception {
    switch (label) {
      case "DLockClient" -> callClient();
      case "DLockClient.get*" -> {
        DLockClient client = client();
        switch (random.nextInt(6)) {
          case 0 -> client.getLock(name());
          case 1 -> client.getFairLock(name());
          case 2 -> client.getReadWriteLock(name());
          case 3 -> client.getSemaphore(name());
          case 4 -> client.getPermitExpirableSemaphore(name());
          default -> client.getCountDownLatch(name());
        }
      }
      case "DLockClient.getStats" -> client().getStats();
      case "DLock" -> callLock();
      case "DSemaphore" -> callSemaphore();
      case "DPermitExpirableSemaphore" -> callPermitSemaphore();
      case "DCountDownLatch" -> callLatch();
      case "DElection" -> callElection();
      case "DMultiLock" -> callGroup(false);
      default -> callGroup(true);
    }
  }

  /** The types the API documents for bad arguments and for calls on another's lock. */
  private static boolean documented(Throwable thrown) {
    if (thrown instanceof LockLostException) {
      return true; // a hold of its own with a lease of a millisecond
    }
    if (thrown instanceof DLockException error) {
      // UNSUPPORTED: inspect() and the like on a read-write lock's side.
      return error.getStatus() == DLockStatus.INVALID || error.getStatus() == DLockStatus.UNSUPPORTED;
    }
    return thrown instanceof IllegalArgumentException || thrown instanceof NullPointerException
        || thrown instanceof IllegalMonitorStateException || thrown instanceof IllegalStateException
        || thrown instanceof UnsupportedOperationException;
  }

  private void run(int calls) {
    String[] labels = {
      "DLockClient", "DLockClient.get*", "DLockClient.getStats", "DLock", "DSemaphore",
      "DPermitExpirableSemaphore", "DCountDownLatch", "DMultiLock", "DRedLock", "DElection",
    };
    for (int number = 0; number < calls; number++) {
      String label = labels[random.nextInt(labels.length)];
      System.out.println("call " + number + ": " + label);
      try {
        call(label);
      } catch (Throwable thrown) {
        if (!documented(thrown)) {
          System.out.println("call " + number + ": " + label + " threw a type not documented:");
          thrown.printStackTrace(System.out);
          System.out.flush();
          System.exit(3);
        }
      }
    }
    clients.forEach(DLockClient::close);
  }
}
