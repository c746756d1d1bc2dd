package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.SectionChecker.Section;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MutualExclusionTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static final int CLIENTS = 2;
  private static final int THREADS_PER_CLIENT = 4;
  private static final int CYCLES = 40;

  /** Read-modify-write on plain fields: lost updates show any overlap. */
  private volatile long counter;

  @Test
  void sectionsNeverOverlapAndTokensRiseInGrantOrder() throws Exception {
    List<Section> sections = Collections.synchronizedList(new ArrayList<>());
    List<DLockClient> clients = new ArrayList<>();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    try {
      for (int c = 0; c < CLIENTS; c++) {
        DLockClient client = DLockClient.connect(redis.url());
        clients.add(client);
        for (int t = 0; t < THREADS_PER_CLIENT; t++) {
          String holder = "client" + c + "/thread" + t;
          DLock lock = client.getLock("exclusion");
          workers.add(Threads.start(() -> {
            for (int cycle = 0; cycle < CYCLES; cycle++) {
              try (LockHold hold = lock.acquire()) {
                long start = System.nanoTime();
                long read = counter;
                Thread.sleep(0, ThreadLocalRandom.current().nextInt(500_000));
                counter = read + 1;
                sections.add(new Section(holder, hold.fencingToken(), start, System.nanoTime()));
              }
            }
            return null;
          }));
        }
      }
      for (CompletableFuture<Void> worker : workers) {
        worker.get(2, TimeUnit.MINUTES);
      }
    } finally {
      clients.forEach(DLockClient::close);
    }

    assertEquals(List.of(), SectionChecker.violations(sections));
    assertEquals(CLIENTS * THREADS_PER_CLIENT * CYCLES, sections.size());
    assertEquals(sections.size(), counter);
  }

  @Test
  void theCheckerFlagsAnUnsafeHistory() {
    List<Section> unsafe = List.of(
        new Section("a", 1, 0, 100), new Section("b", 2, 50, 150), new Section("c", 2, 200, 300));
    List<String> found = SectionChecker.violations(unsafe);
    assertEquals(2, found.size(), found.toString());
    assertTrue(found.get(0).startsWith("overlap"));
    assertTrue(found.get(1).startsWith("token did not increase"));
  }
}
