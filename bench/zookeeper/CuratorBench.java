// Curator's side of zk_bench, run from source (java -cp "<curator jars>" CuratorBench.java ...):
//   uncontended CONNECT PATH WARMUP_MS RUN_MS        prints "pairs <count> <elapsed_ns>"
//   contend CONNECT PATH GO_FILE RUN_MS GRANT_LOG    once GO_FILE exists, for RUN_MS, takes and lets go
//     InterProcessMutex(PATH), appending "acquired_ns released_ns owner" per grant to GRANT_LOG
//     (bench/zookeeper/grant_log.hpp); prints "grants <count>".
// Both print "ready" once connected.
import java.io.FileOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorBench {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 4000, 4000, new RetryNTimes(5, 100))) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
      System.out.println("ready");
      System.out.flush();
      InterProcessMutex mutex = new InterProcessMutex(client, args[2]);
      if (mode.equals("uncontended")) {
        long warmupEnd = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000L;
        while (System.nanoTime() < warmupEnd) {
          mutex.acquire();
          mutex.release();
        }
        long start = System.nanoTime();
        long end = start + Long.parseLong(args[4]) * 1_000_000L;
        long pairs = 0;
        long now = start;
        while (now < end) {
          mutex.acquire();
          mutex.release();
          ++pairs;
          now = System.nanoTime();
        }
        System.out.println("pairs " + pairs + " " + (now - start));
        return;
      }
      java.nio.file.Path go = java.nio.file.Paths.get(args[3]);
      while (!java.nio.file.Files.exists(go)) Thread.sleep(1);
      long end = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000L;
      String owner = "curator-" + ManagementFactory.getRuntimeMXBean().getPid();
      StringBuilder lines = new StringBuilder();
      long grants = 0;
      while (System.nanoTime() < end) {
        mutex.acquire();
        long acquired = System.nanoTime();
        long released = System.nanoTime();
        mutex.release();
        lines.append(acquired).append(' ').append(released).append(' ').append(owner).append('\n');
        ++grants;
      }
      try (FileOutputStream log = new FileOutputStream(args[5], true)) {
        log.write(lines.toString().getBytes(StandardCharsets.US_ASCII));
      }
      System.out.println("grants " + grants);
    }
  }
}
