package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Leader election (SPEC 13): DElection against a real redis-server. */
class DElectionTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();
  @RegisterExtension final LogCapture capture = new LogCapture();

  /** Renewed every 300 ms, so a loss shows within a second. */
  private static final String FAST_WATCHDOG = "?watchdog_timeout_ms=900";

  private DLockClient client;
  private DLockClient other;
  private Jedis jedis;
  private String name;

  @BeforeEach
  void open(TestInfo test) {
    client = DLockClient.connect(redis.url());
    other = DLockClient.connect(redis.url());
    jedis = redis.jedis();
    name = "election-" + test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void close() {
    client.close();
    other.close();
    jedis.close();
  }

  /** A term and a value, what observers are compared by (the start is the server's). */
  private record Seen(long term, String value) {
    static Seen of(Leader leader) {
      return new Seen(leader.term(), leader.value());
    }
  }

  @Test
  void aCampaignGivesATermThatLeaderShowsAndTheNextTermIsGreater() throws Exception {
    try (DElection first = client.getElection(name); DElection second = other.getElection(name)) {
      assertEquals(Optional.empty(), first.leader());
      Instant before = Instant.now().minusSeconds(5);
      long term = first.campaign("host-a");
      assertTrue(term > 0, "term " + term);
      assertTrue(first.isLeader());
      assertEquals(term, first.term());
      assertEquals(term, first.campaign("ignored"), "a leader campaigning again gets its term again");

      Leader seen = second.leader().orElseThrow();
      assertEquals("host-a", seen.value());
      assertEquals(term, seen.term());
      assertTrue(seen.since().isAfter(before) && seen.since().isBefore(Instant.now().plusSeconds(5)),
          seen.toString());
      assertEquals(seen, first.leader().orElseThrow());
      assertFalse(second.isLeader());
      assertEquals(DElection.NOT_ELECTED, second.campaign("host-b", 0, TimeUnit.SECONDS));

      first.resign();
      assertFalse(first.isLeader());
      assertEquals(Optional.empty(), second.leader());
      long next = second.campaign("host-b");
      assertTrue(next > term, next + " after " + term);
      assertEquals(new Seen(next, "host-b"), Seen.of(first.leader().orElseThrow()));
      second.resign();
      long again = first.campaign("host-a");
      assertTrue(again > next, again + " after " + next);
    }
  }

  @Test
  void aTimedCampaignReturnsNotElectedWhenTheWaitRunsOut() throws Exception {
    try (DElection leader = client.getElection(name); DElection waiter = other.getElection(name)) {
      leader.campaign("leader");
      long start = System.nanoTime();
      assertEquals(DElection.NOT_ELECTED, waiter.campaign("waiter", 200, TimeUnit.MILLISECONDS));
      long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(waited >= 190 && waited < 5000, "waited " + waited + " ms");
      assertFalse(waiter.isLeader());
      assertTrue(leader.isLeader());
    }
  }

  @Test
  void resignHandsTheLeadershipToAWaitingCandidateAtOnce() throws Exception {
    try (DElection first = client.getElection(name); DElection second = other.getElection(name)) {
      long term = first.campaign("first");
      CompletableFuture<long[]> granted = Threads.start(() -> {
        long next = second.campaign("second");
        return new long[] {next, System.nanoTime()};
      });
      Thread.sleep(300);
      assertFalse(granted.isDone(), "a second leader while the first leads");
      long resignedAt = System.nanoTime();
      first.resign();
      long[] next = granted.get(10, TimeUnit.SECONDS);
      long handOverMs = TimeUnit.NANOSECONDS.toMillis(next[1] - resignedAt);
      // The lease is the watchdog's 30 s: only the release's wake-up explains a prompt grant.
      assertTrue(handOverMs < 1000, "hand-over took " + handOverMs + " ms");
      assertTrue(next[0] > term);
      assertTrue(second.isLeader());
      assertEquals(new Seen(next[0], "second"), Seen.of(first.leader().orElseThrow()));
    }
  }

  @Test
  void proclaimChangesTheValueForTheSameTermAndObserversSeeIt() throws Exception {
    try (DElection leader = client.getElection(name); DElection watcher = other.getElection(name)) {
      long term = leader.campaign("v1");
      List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
      // Observing starts with the leader of the moment: once it is seen, nothing is missed.
      watcher.observe(change -> seen.add(Seen.of(change)));
      assertTrue(Threads.eventually(5, () -> seen.size() == 1), seen.toString());
      leader.proclaim("v2");
      assertEquals(new Seen(term, "v2"), Seen.of(watcher.leader().orElseThrow()));
      assertEquals(term, leader.term());
      assertTrue(Threads.eventually(5, () -> seen.size() >= 2), seen.toString());
      Thread.sleep(200);
      assertEquals(List.of(new Seen(term, "v1"), new Seen(term, "v2")), seen);
    }
  }

  /** Collects what a Flow subscriber receives, requesting one change at a time. */
  private static final class Collector implements Flow.Subscriber<Leader> {
    final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> completed = new CompletableFuture<>();
    volatile Flow.Subscription subscription;

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(Leader leader) {
      seen.add(Seen.of(leader));
      subscription.request(1);
    }

    @Override
    public void onError(Throwable error) {
      completed.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
      completed.complete(null);
    }
  }

  @Test
  void observersSeeEveryChangeInOrderOnceAsCandidatesTakeTurns() throws Exception {
    try (DLockClient third = DLockClient.connect(redis.url())) {
      List<DElection> candidates = List.of(client.getElection(name), other.getElection(name),
          client.getElection(name));
      DElection watcher = third.getElection(name);
      List<Seen> observed = Collections.synchronizedList(new ArrayList<>());
      Collector subscriber = new Collector();

      List<Seen> expected = new ArrayList<>();
      for (int round = 0; round < 12; round++) {
        DElection candidate = candidates.get(round % candidates.size());
        String value = "round-" + round;
        long term = candidate.campaign(value);
        expected.add(new Seen(term, value));
        if (round == 0) {
          // Observing starts with the leader of the moment: once it is seen, nothing is missed.
          watcher.observe(change -> observed.add(Seen.of(change)));
          watcher.leaders().subscribe(subscriber);
          assertTrue(Threads.eventually(5, () -> observed.size() == 1 && subscriber.seen.size() == 1),
              observed + " / " + subscriber.seen);
        }
        if (round % 2 == 1) {
          candidate.proclaim(value + "-proclaimed");
          expected.add(new Seen(term, value + "-proclaimed"));
        }
        candidate.resign();
      }
      assertTrue(Threads.eventually(10, () -> observed.size() >= expected.size()
          && subscriber.seen.size() >= expected.size()), observed + " / " + subscriber.seen);
      Thread.sleep(300); // nothing more comes
      assertEquals(expected, observed);
      assertEquals(expected, subscriber.seen);
      List<Long> grants = new ArrayList<>();
      for (int i = 0; i < expected.size(); i++) {
        if (i == 0 || expected.get(i).term() != expected.get(i - 1).term()) {
          grants.add(expected.get(i).term());
        }
      }
      assertEquals(12, grants.size());
      for (int i = 1; i < grants.size(); i++) {
        assertTrue(grants.get(i) > grants.get(i - 1), grants.toString());
      }

      // A late subscriber gets the current leader first, then the changes.
      long term = candidates.get(0).campaign("late");
      assertTrue(Threads.eventually(5, () -> observed.size() == expected.size() + 1), observed.toString());
      Collector late = new Collector();
      watcher.leaders().subscribe(late);
      assertTrue(Threads.eventually(5, () -> late.seen.size() == 1), late.seen.toString());
      assertEquals(new Seen(term, "late"), late.seen.get(0));
      candidates.get(0).proclaim("late-2");
      assertTrue(Threads.eventually(5, () -> late.seen.size() == 2), late.seen.toString());
      assertEquals(new Seen(term, "late-2"), late.seen.get(1));

      watcher.close();
      subscriber.completed.get(5, TimeUnit.SECONDS);
      late.completed.get(5, TimeUnit.SECONDS);
      candidates.forEach(DElection::close);
    }
  }

  @Test
  void aSubscriberThatResignedFromTheFlowHearsNothingMore() throws Exception {
    try (DElection leader = client.getElection(name); DElection watcher = other.getElection(name)) {
      Collector subscriber = new Collector();
      watcher.leaders().subscribe(subscriber);
      long term = leader.campaign("one");
      assertTrue(Threads.eventually(5, () -> subscriber.seen.size() == 1));
      subscriber.subscription.cancel();
      leader.proclaim("two");
      Thread.sleep(300);
      assertEquals(List.of(new Seen(term, "one")), subscriber.seen);
    }
  }

  @Test
  void campaignAsyncCompletesWithTheTermAndItsCancelEndsTheWait() throws Exception {
    try (DElection first = client.getElection(name); DElection second = other.getElection(name)) {
      long term = first.campaignAsync("first").get(5, TimeUnit.SECONDS);
      assertTrue(first.isLeader());
      assertEquals(term, first.term());

      CompletableFuture<Long> waiting = second.campaignAsync("second");
      Thread.sleep(200);
      assertFalse(waiting.isDone());
      assertTrue(waiting.cancel(true));
      assertThrows(CancellationException.class, waiting::join);
      first.resign();
      Thread.sleep(300);
      assertFalse(second.isLeader(), "a cancelled campaign was elected");
      assertEquals(Optional.empty(), first.leader());

      // A waiting future completes once the leader resigns.
      first.campaign("first");
      CompletableFuture<Long> handedOver = second.campaignAsync("second");
      Thread.sleep(200);
      assertFalse(handedOver.isDone());
      first.resign();
      long next = handedOver.get(5, TimeUnit.SECONDS);
      assertTrue(next > term);
      assertEquals(next, second.term());

      // The timed form completes with NOT_ELECTED.
      assertEquals(DElection.NOT_ELECTED,
          (long) first.campaignAsync("first", 100, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void campaignsThatRaceTheirCancellationLeaveNoLeader() throws Exception {
    List<DElection> candidates = new ArrayList<>();
    try (DElection watcher = other.getElection(name)) {
      for (int i = 0; i < 20; i++) {
        DElection candidate = client.getElection(name);
        candidates.add(candidate);
        CompletableFuture<Long> future = candidate.campaignAsync("racing-" + i);
        if (!future.cancel(true)) {
          future.get(5, TimeUnit.SECONDS);
          candidate.resign();
        }
      }
      // A cancelled campaign granted meanwhile resigns on the callback executor,
      // and one still queued may be granted after another resigned: what must
      // hold in the end is that nobody leads, on the server or in the client.
      assertTrue(Threads.eventually(5,
              () -> watcher.leader().isEmpty() && candidates.stream().noneMatch(DElection::isLeader)),
          "a cancelled campaign kept leading: " + watcher.leader());
    } finally {
      candidates.forEach(DElection::close);
    }
  }

  @Test
  void anInterruptEndsABlockedCampaign() throws Exception {
    try (DElection leader = client.getElection(name); DElection waiter = other.getElection(name)) {
      leader.campaign("leader");
      CompletableFuture<Long> interruptedAt = new CompletableFuture<>();
      Thread thread = new Thread(() -> {
        try {
          waiter.campaign("waiter");
          interruptedAt.completeExceptionally(new AssertionError("elected while another leads"));
        } catch (InterruptedException expected) {
          interruptedAt.complete(System.nanoTime());
        } catch (Throwable unexpected) {
          interruptedAt.completeExceptionally(unexpected);
        }
      });
      thread.start();
      Thread.sleep(200);
      long sentAt = System.nanoTime();
      thread.interrupt();
      long ms = TimeUnit.NANOSECONDS.toMillis(interruptedAt.get(5, TimeUnit.SECONDS) - sentAt);
      assertTrue(ms < 500, "the campaign ended " + ms + " ms after the interrupt");
      leader.resign();
      Thread.sleep(200);
      assertFalse(waiter.isLeader());
    }
  }

  @Test
  void closingResignsAndEndsTheCampaignsInFlight() throws Exception {
    DElection leader = client.getElection(name);
    DElection blockedWaiter = other.getElection(name);
    DElection asyncWaiter = other.getElection(name);
    try (DElection watcher = other.getElection(name)) {
      leader.campaign("leader");
      CompletableFuture<Long> blocked = Threads.start(() -> blockedWaiter.campaign("blocked"));
      CompletableFuture<Long> async = asyncWaiter.campaignAsync("async");
      Thread.sleep(200);
      long closedAt = System.nanoTime();
      blockedWaiter.close();
      asyncWaiter.close();
      ExecutionException failed = assertThrows(ExecutionException.class, () -> blocked.get(5, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, failed.getCause());
      failed = assertThrows(ExecutionException.class, () -> async.get(5, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, failed.getCause());
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt) < 2000);
      assertThrows(IllegalStateException.class, blockedWaiter::isLeader);
      assertThrows(IllegalStateException.class, () -> asyncWaiter.campaign("again"));
      blockedWaiter.close(); // a second close does nothing

      leader.close();
      assertEquals(Optional.empty(), watcher.leader(), "closing the leader resigns");
    }
  }

  @Test
  void closingTheClientClosesItsElections() throws Exception {
    DElection leader = client.getElection(name);
    Collector subscriber = new Collector();
    leader.leaders().subscribe(subscriber);
    leader.campaign("leader");
    client.close();
    assertThrows(IllegalStateException.class, leader::isLeader);
    assertThrows(IllegalStateException.class, () -> client.getElection(name));
    subscriber.completed.get(5, TimeUnit.SECONDS);
    try (DElection watcher = other.getElection(name)) {
      assertTrue(Threads.eventually(5, () -> watcher.leader().isEmpty()), "the closed client still leads");
    }
    leader.close(); // after the client's close: nothing to do
  }

  @Test
  void theLostListenerHearsOfALeadershipTakenAway() throws Exception {
    try (DLockClient fast = DLockClient.connect(redis.url() + FAST_WATCHDOG);
        DElection leader = fast.getElection(name)) {
      CompletableFuture<Object[]> lost = new CompletableFuture<>();
      leader.setLostListener((electionName, term) -> lost.complete(new Object[] {electionName, term}));
      long term = leader.campaign("doomed");
      // The technique LostListenerTest uses on a lock: the leadership's key vanishes.
      assertEquals(1, jedis.del("dlock_election:{" + name + "}"));
      Object[] heard = lost.get(5, TimeUnit.SECONDS);
      assertEquals(name, heard[0]);
      assertEquals(term, heard[1]);
      assertFalse(leader.isLeader());
      assertThrows(IllegalMonitorStateException.class, leader::term);
      assertThrows(LockLostException.class, leader::resign);
    }
  }

  @Test
  void twoHundredVirtualThreadsCampaignInTurnOnTwoCarriers() throws Exception {
    Map<String, String> result = TwoCarriers.run(ElectionProbe.class, "finished=",
        TwoCarriers.arguments(redis.url(), "campaign", "200"));
    assertEquals("200", result.get("finished"), result.toString());
    assertEquals("200", result.get("leaders"), result.toString());
    assertEquals("0", result.get("overlaps"), result.toString());
    assertEquals("true", result.get("increasing"), result.toString());
  }

  @Test
  void badArgumentsAreRefusedNamingThem() throws Exception {
    assertThrows(NullPointerException.class, () -> client.getElection(null));
    DLockException empty = assertThrows(DLockException.class, () -> client.getElection(""));
    assertEquals(DLockStatus.INVALID, empty.getStatus());
    try (DElection election = client.getElection(name)) {
      assertThrows(NullPointerException.class, () -> election.campaign(null));
      assertThrows(NullPointerException.class, () -> election.campaignAsync(null));
      assertThrows(NullPointerException.class, () -> election.campaign("v", 1, null));
      IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> election.campaign("a\0b"));
      assertTrue(nul.getMessage().contains("value"), nul.getMessage());
      DLockException tooLong = assertThrows(DLockException.class, () -> election.campaign("x".repeat(1025)));
      assertEquals(DLockStatus.INVALID, tooLong.getStatus());
      assertThrows(DLockException.class, () -> election.campaignAsync("x".repeat(1025)));
      assertEquals(Optional.empty(), election.leader(), "a refused campaign elected");

      // What only a leader may do.
      assertThrows(IllegalMonitorStateException.class, election::resign);
      assertThrows(IllegalMonitorStateException.class, () -> election.proclaim("v"));
      assertThrows(IllegalMonitorStateException.class, election::term);
      assertThrows(NullPointerException.class, () -> election.observe(null));
      assertThrows(NullPointerException.class, () -> election.leaders().subscribe(null));

      long term = election.campaign("x".repeat(1024));
      assertEquals("x".repeat(1024), election.leader().orElseThrow().value());
      assertThrows(NullPointerException.class, () -> election.proclaim(null));
      DLockException proclaimed = assertThrows(DLockException.class, () -> election.proclaim("y".repeat(1025)));
      assertEquals(DLockStatus.INVALID, proclaimed.getStatus());
      election.proclaim("");
      assertEquals(new Seen(term, ""), Seen.of(election.leader().orElseThrow()));
      election.proclaim("π ≠ 𝄞");
      assertEquals("π ≠ 𝄞", election.leader().orElseThrow().value());

      // A request of 0 fails the subscription (Reactive Streams rule 3.9).
      CompletableFuture<Throwable> error = new CompletableFuture<>();
      election.leaders().subscribe(new Flow.Subscriber<>() {
        public void onSubscribe(Flow.Subscription subscription) {
          subscription.request(0);
        }

        public void onNext(Leader leader) {}

        public void onError(Throwable thrown) {
          error.complete(thrown);
        }

        public void onComplete() {}
      });
      assertInstanceOf(IllegalArgumentException.class, error.get(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void aThrowingObserverKeepsGettingChanges() throws Exception {
    try (DElection leader = client.getElection(name); DElection watcher = other.getElection(name)) {
      List<Seen> calls = Collections.synchronizedList(new ArrayList<>());
      long term = leader.campaign("one");
      watcher.observe(change -> {
        calls.add(Seen.of(change));
        throw new IllegalStateException("observer failed (expected by the test)");
      });
      assertTrue(Threads.eventually(5, () -> calls.size() == 1), calls.toString());
      leader.proclaim("two");
      assertTrue(Threads.eventually(5, () -> calls.size() == 2), calls.toString());
      assertEquals(List.of(new Seen(term, "one"), new Seen(term, "two")), calls);
      assertTrue(capture.has(Level.SEVERE, "an observer of the leaders of '" + name + "' threw"),
          capture.messages().toString());
    }
  }

  @Test
  void leaderIsARecordLikeValue() {
    Instant since = Instant.ofEpochMilli(1_700_000_000_000L);
    Leader leader = Leader.of("v", 7, since.toEpochMilli());
    assertEquals(new Leader("v", 7, since), leader);
    assertEquals(new Leader("v", 7, since).hashCode(), leader.hashCode());
    assertFalse(leader.equals(new Leader("v", 8, since)));
    assertEquals("Leader[value=v, term=7, since=" + since + "]", leader.toString());
    assertTrue(Duration.between(since, leader.since()).isZero());
  }
}
