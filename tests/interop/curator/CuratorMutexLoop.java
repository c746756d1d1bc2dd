// Curator's side of test_zk_mutex's interop cases, run from source
// (java -cp "<curator jars>" CuratorMutexLoop.java CONNECT PATH CYCLES HOLD_MS SECTION_LOG [KIND]):
// takes InterProcessMutex(PATH), or with KIND "read" or "write" that side of
// InterProcessReadWriteLock(PATH), CYCLES times, holding it HOLD_MS each time,
// and appends each critical section to SECTION_LOG as tests/support/section_log.cpp
// writes them ("token owner start_ns end_ns accepted release_status"; the token
// is our lock node's czxid; the owner "curator", or "r:curator"/"w:curator" as
// tests/support/rw_safety_checker reads them; System.nanoTime() is
// CLOCK_MONOTONIC on Linux, so the times compare with the C++ side's). Prints
// "ready" once connected, "done" at the end.
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorMutexLoop {
  // The read-write lock's sides, opened up to tell which node they hold.
  static final class ReadSide extends InterProcessReadWriteLock.ReadLock {
    ReadSide(CuratorFramework client, String path) {
      super(client, path, null, new InterProcessReadWriteLock.WriteLock(client, path, null));
    }

    String nodePath() {
      return getLockPath();
    }
  }

  static final class WriteSide extends InterProcessReadWriteLock.WriteLock {
    WriteSide(CuratorFramework client, String path) {
      super(client, path, null);
    }

    String nodePath() {
      return getLockPath();
    }
  }

  public static void main(String[] args) throws Exception {
    String connect = args[0];
    String path = args[1];
    int cycles = Integer.parseInt(args[2]);
    long holdMs = Long.parseLong(args[3]);
    String kind = args.length > 5 ? args[5] : "mutex";
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 4000, 4000, new RetryNTimes(5, 100));
        FileOutputStream log = new FileOutputStream(args[4], true)) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
      System.out.println("ready");
      System.out.flush();
      InterProcessMutex mutex = new InterProcessMutex(client, path);
      ReadSide reader = new ReadSide(client, path);
      WriteSide writer = new WriteSide(client, path);
      InterProcessLock lock = kind.equals("read") ? reader : kind.equals("write") ? writer : mutex;
      String owner = kind.equals("read") ? "r:curator" : kind.equals("write") ? "w:curator" : "curator";
      for (int i = 0; i < cycles; ++i) {
        lock.acquire();
        long start = System.nanoTime();
        // Held: the mutex's node sorts first among its participants.
        String ours = kind.equals("read") ? reader.nodePath()
            : kind.equals("write") ? writer.nodePath() : mutex.getParticipantNodes().iterator().next();
        long token = client.checkExists().forPath(ours).getCzxid();
        Thread.sleep(holdMs);
        long end = System.nanoTime();
        // One write() per line, appended: lines never interleave with the C++ side's.
        log.write((token + " " + owner + " " + start + " " + end + " 1 0\n").getBytes(StandardCharsets.US_ASCII));
        lock.release();
      }
      System.out.println("done");
    }
  }
}
