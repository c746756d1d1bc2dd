// Curator's LeaderSelector beside dlock's election on one path, run from source
// (java -cp "<curator jars>" CuratorLeaderLoop.java CONNECT PATH MODE ...):
//
//   lead ID CYCLES HOLD_MS SECTION_LOG: a LeaderSelector with participant id ID
//     leads CYCLES times (requeued after each), holding the leadership HOLD_MS
//     each time, and appends each term to SECTION_LOG as
//     tests/support/section_log.cpp writes sections ("token owner start_ns
//     end_ns accepted release_status"; the token is the leader's node's czxid,
//     the owner "curator"; System.nanoTime() is CLOCK_MONOTONIC on Linux).
//   watch MS: prints "leader ID" each time LeaderSelector.getLeader() names
//     another participant, for MS milliseconds, as a Curator service that
//     does not campaign reads who leads.
//
// Prints "ready" once connected and "done" at the end.
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorLeaderLoop {
  // The leader's node: the first of the path's lock nodes by sequence.
  static String leaderNode(CuratorFramework client, String path) throws Exception {
    List<String> children = client.getChildren().forPath(path);
    children.sort(Comparator.comparing(name -> name.substring(name.length() - 10)));
    return path + "/" + children.get(0);
  }

  static void lead(CuratorFramework client, String path, String id, int cycles, long holdMs, String log)
      throws Exception {
    SynchronousQueue<Long> terms = new SynchronousQueue<>();
    Semaphore resign = new Semaphore(0);
    LeaderSelector selector = new LeaderSelector(client, path, new LeaderSelectorListenerAdapter() {
      @Override
      public void takeLeadership(CuratorFramework leading) throws Exception {
        terms.put(leading.checkExists().forPath(leaderNode(leading, path)).getCzxid());
        resign.acquire();  // returning from here gives the leadership up
      }
    });
    selector.setId(id);
    selector.autoRequeue();
    selector.start();
    try (FileOutputStream sections = new FileOutputStream(log, true)) {
      for (int i = 0; i < cycles; ++i) {
        long term = terms.take();
        long start = System.nanoTime();
        Thread.sleep(holdMs);
        long end = System.nanoTime();
        // One write() per line, appended: lines never interleave with the C++ side's.
        sections.write((term + " curator " + start + " " + end + " 1 0\n").getBytes(StandardCharsets.US_ASCII));
        if (i + 1 == cycles) selector.close();  // not requeued after the last
        resign.release();
      }
    }
  }

  static void watch(CuratorFramework client, String path, long ms) throws Exception {
    LeaderSelector reader = new LeaderSelector(client, path, new LeaderSelectorListenerAdapter() {
      @Override
      public void takeLeadership(CuratorFramework leading) {}
    });
    String told = "";
    long end = System.nanoTime() + ms * 1_000_000L;
    while (System.nanoTime() < end) {
      Participant leader = reader.getLeader();
      if (leader.isLeader() && !leader.getId().equals(told)) {
        told = leader.getId();
        System.out.println("leader " + told);
        System.out.flush();
      }
      Thread.sleep(20);
    }
  }

  public static void main(String[] args) throws Exception {
    String connect = args[0];
    String path = args[1];
    String mode = args[2];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 4000, 4000, new RetryNTimes(5, 100))) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
      System.out.println("ready");
      System.out.flush();
      if (mode.equals("lead")) {
        lead(client, path, args[3], Integer.parseInt(args[4]), Long.parseLong(args[5]), args[6]);
      } else {
        watch(client, path, Long.parseLong(args[3]));
      }
      System.out.println("done");
    }
  }
}
