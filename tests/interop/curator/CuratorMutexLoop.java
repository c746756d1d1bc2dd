// Curator's side of test_zk_mutex's interop case, run from source
// (java -cp "<curator jars>" CuratorMutexLoop.java CONNECT PATH CYCLES HOLD_MS SECTION_LOG):
// takes InterProcessMutex(PATH) CYCLES times, holding it HOLD_MS each time, and
// appends each critical section to SECTION_LOG as tests/support/section_log.cpp
// writes them ("token owner start_ns end_ns accepted release_status"; the token
// is our lock node's czxid; System.nanoTime() is CLOCK_MONOTONIC on Linux, so
// the times compare with the C++ side's). Prints "ready" once connected, "done" at the end.
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorMutexLoop {
  public static void main(String[] args) throws Exception {
    String connect = args[0];
    String path = args[1];
    int cycles = Integer.parseInt(args[2]);
    long holdMs = Long.parseLong(args[3]);
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 4000, 4000, new RetryNTimes(5, 100));
        FileOutputStream log = new FileOutputStream(args[4], true)) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
      System.out.println("ready");
      System.out.flush();
      InterProcessMutex mutex = new InterProcessMutex(client, path);
      for (int i = 0; i < cycles; ++i) {
        mutex.acquire();
        long start = System.nanoTime();
        // Held: our node sorts first among the participants.
        String ours = mutex.getParticipantNodes().iterator().next();
        long token = client.checkExists().forPath(ours).getCzxid();
        Thread.sleep(holdMs);
        long end = System.nanoTime();
        // One write() per line, appended: lines never interleave with the C++ side's.
        log.write((token + " curator " + start + " " + end + " 1 0\n").getBytes(StandardCharsets.US_ASCII));
        mutex.release();
      }
      System.out.println("done");
    }
  }
}
