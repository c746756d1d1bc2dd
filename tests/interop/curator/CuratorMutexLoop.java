// Curator's side of test_zk_mutex's interop cases, run from source
// (java -cp "<curator jars>" CuratorMutexLoop.java CONNECT PATH CYCLES HOLD_MS SECTION_LOG [KIND]):
// takes InterProcessMutex(PATH), or with KIND "read" or "write" that side of
// InterProcessReadWriteLock(PATH), or with KIND "semaphore" a lease of
// InterProcessSemaphoreV2(PATH, 1) (what InterProcessSemaphoreMutex is) or
// with "semaphore:N" of InterProcessSemaphoreV2(PATH, N), or
// with KIND "semaphore-mutex" InterProcessSemaphoreMutex(PATH) itself, CYCLES
// times, holding it HOLD_MS each time, and appends each critical section to
// SECTION_LOG as tests/support/section_log.cpp writes them ("token owner
// start_ns end_ns accepted release_status"; the token is our node's czxid; the
// owner "curator", or "r:curator"/"w:curator" as tests/support/rw_safety_checker
// reads them; System.nanoTime() is CLOCK_MONOTONIC on Linux, so the times
// compare with the C++ side's). Prints "ready" once connected, "done" at the end.
import java.io.FileOutputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorMutexLoop {
  // One recipe, taken and let go; acquire() returns the path of the node it holds by.
  interface Recipe {
    String acquire() throws Exception;

    void release() throws Exception;
  }

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

  static Recipe recipe(CuratorFramework client, String path, String kind) {
    if (kind.startsWith("semaphore:")) return semaphore(client, path, Integer.parseInt(kind.substring(10)));
    switch (kind) {
      case "read": {
        ReadSide side = new ReadSide(client, path);
        return new Recipe() {
          public String acquire() throws Exception { side.acquire(); return side.nodePath(); }
          public void release() throws Exception { side.release(); }
        };
      }
      case "write": {
        WriteSide side = new WriteSide(client, path);
        return new Recipe() {
          public String acquire() throws Exception { side.acquire(); return side.nodePath(); }
          public void release() throws Exception { side.release(); }
        };
      }
      case "semaphore":
        return semaphore(client, path, 1);
      case "semaphore-mutex": {
        InterProcessSemaphoreMutex mutex = new InterProcessSemaphoreMutex(client, path);
        return new Recipe() {
          public String acquire() throws Exception {
            mutex.acquire();
            // Its lease is private: read it to tell which node holds it.
            Field held = InterProcessSemaphoreMutex.class.getDeclaredField("lease");
            held.setAccessible(true);
            return path + "/leases/" + ((Lease) held.get(mutex)).getNodeName();
          }
          public void release() throws Exception { mutex.release(); }
        };
      }
      default: {
        InterProcessMutex mutex = new InterProcessMutex(client, path);
        return new Recipe() {
          // Held: our node sorts first among the participants.
          public String acquire() throws Exception {
            mutex.acquire();
            return mutex.getParticipantNodes().iterator().next();
          }
          public void release() throws Exception { mutex.release(); }
        };
      }
    }
  }

  static Recipe semaphore(CuratorFramework client, String path, int maxLeases) {
    InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, path, maxLeases);
    return new Recipe() {
      Lease lease;
      public String acquire() throws Exception {
        lease = semaphore.acquire();
        return path + "/leases/" + lease.getNodeName();
      }
      public void release() throws Exception { semaphore.returnLease(lease); }
    };
  }

  public static void main(String[] args) throws Exception {
    String connect = args[0];
    String path = args[1];
    int cycles = Integer.parseInt(args[2]);
    long holdMs = Long.parseLong(args[3]);
    String kind = args.length > 5 ? args[5] : "mutex";
    String owner = kind.equals("read") ? "r:curator" : kind.equals("write") ? "w:curator" : "curator";
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 4000, 4000, new RetryNTimes(5, 100));
        FileOutputStream log = new FileOutputStream(args[4], true)) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
      System.out.println("ready");
      System.out.flush();
      Recipe recipe = recipe(client, path, kind);
      for (int i = 0; i < cycles; ++i) {
        String node = recipe.acquire();
        long start = System.nanoTime();
        long token = client.checkExists().forPath(node).getCzxid();
        Thread.sleep(holdMs);
        long end = System.nanoTime();
        // One write() per line, appended: lines never interleave with the C++ side's.
        log.write((token + " " + owner + " " + start + " " + end + " 1 0\n").getBytes(StandardCharsets.US_ASCII));
        recipe.release();
      }
      System.out.println("done");
    }
  }
}
