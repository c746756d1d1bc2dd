package io.dlock.bench;

import io.dlock.DElection;
import io.dlock.DLockClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * One candidate of ElectionBenchmark, in a JVM of its own, driven through its
 * standard input and reporting on its standard output (System.nanoTime, i.e.
 * CLOCK_MONOTONIC, comparable across processes):
 * <pre>
 *   out: "@ready"                        connected and campaigning
 *   out: "@granted NANOS TERM"           became leader (TERM 0 for Spring: it has none)
 *   in:  "resign"   out: "@resigning NANOS"  dlock resign() (then campaigns again) / Spring Context.yield()
 *   in:  "stop"     out: "@resigning NANOS"  Spring only: stops its LockRegistryLeaderInitiator
 *   in:  "start"                         Spring only: starts it again
 * </pre>
 * End of input closes the candidate (resigning, as a clean shutdown would); a
 * crash is the parent's SIGKILL.
 */
final class ElectionCandidate {
  /** dlock's DElection, watchdog timeout 5 s. */
  static final String DLOCK = "dlock";
  /** LockRegistryLeaderInitiator at its defaults, RedisLockRegistry expireAfter 5 s, at its defaults. */
  static final String SPRING = "spring";
  /** The same, with RedisLockRegistry's PUB_SUB_LOCK: waiters woken by the unlock message. */
  static final String SPRING_PUBSUB = "spring-pubsub";
  /** The lease of either: dlock's watchdog timeout, RedisLockRegistry's expireAfter. */
  static final Duration LEASE = Duration.ofSeconds(5);

  /** The binding's logger (io.dlock.LogBridge, through System.Logger, i.e. java.util.logging here); held, so its level stays. */
  private static final java.util.logging.Logger DLOCK_LOGGER = java.util.logging.Logger.getLogger("io.dlock");

  private ElectionCandidate() {}

  static void run(String kind, String url, String name, String id) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    if (kind.equals(DLOCK)) {
      runDlock(in, url, name, id);
    } else {
      runSpring(in, kind, url, name, id);
    }
    System.exit(0); // client threads left behind do not keep this JVM
  }

  private static void runDlock(BufferedReader in, String url, String name, String id) throws Exception {
    // The core logs a grant after a long wait at INFO (every crash trial's new leader): warnings only.
    DLOCK_LOGGER.setLevel(java.util.logging.Level.WARNING);
    try (DLockClient client = DLockClient.builder().url(url).watchdogTimeout(LEASE).build();
        DElection election = client.getElection(name)) {
      Semaphore resignOrders = new Semaphore(0);
      Thread campaigner = new Thread(() -> {
        try {
          while (true) {
            long term = election.campaign(id);
            emit("@granted " + System.nanoTime() + " " + term);
            resignOrders.acquire();
            emit("@resigning " + System.nanoTime());
            election.resign(); // the next waiting candidate is granted at once
          }
        } catch (InterruptedException | IllegalStateException closed) {
          // End of input: the election is closing.
        }
      }, "campaigner");
      campaigner.setDaemon(true);
      campaigner.start();
      emit("@ready");
      for (String line; (line = in.readLine()) != null; ) {
        if (line.equals("resign")) {
          resignOrders.release();
        }
      }
    }
  }

  private static void runSpring(BufferedReader in, String kind, String url, String name, String id)
      throws Exception {
    URI uri = URI.create(url);
    LettuceConnectionFactory connections =
        new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
    connections.afterPropertiesSet();
    connections.start();
    RedisLockRegistry registry = new RedisLockRegistry(connections, "bench-election", LEASE.toMillis());
    if (kind.equals(SPRING_PUBSUB)) {
      registry.setRedisLockType(RedisLockRegistry.RedisLockType.PUB_SUB_LOCK);
    }
    Context[] leading = new Context[1];
    LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry, new DefaultCandidate(id, name) {
      @Override
      public void onGranted(Context context) {
        long now = System.nanoTime();
        synchronized (leading) {
          leading[0] = context;
        }
        emit("@granted " + now + " 0");
      }

      @Override
      public void onRevoked(Context context) {}
    });
    // Defaults kept: heartBeatMillis 500, busyWaitMillis 50 (DEFAULT_BUSY_WAIT_TIME).
    initiator.start();
    emit("@ready");
    for (String line; (line = in.readLine()) != null; ) {
      switch (line) {
        case "resign": {
          Context context;
          synchronized (leading) {
            context = leading[0];
          }
          emit("@resigning " + System.nanoTime());
          context.yield();
          break;
        }
        case "stop":
          emit("@resigning " + System.nanoTime());
          initiator.stop();
          break;
        case "start":
          initiator.start();
          break;
        default:
          break;
      }
    }
    initiator.destroy(); // the leader unlocks (from another thread: its selector was interrupted)
    Thread.sleep(200);
    // Then exit, leaving the registry's listener to the exit: its destroy() shuts its executor
    // under messages still arriving from the others' unlocks, which logs a RejectedExecutionException.
  }

  private static synchronized void emit(String event) {
    System.out.println(event);
    System.out.flush();
  }
}
