// The Java observer of tests/interop/election_observers.py, run from source
// (java -cp dlock.jar ElectionWatch.java URL NAME): one JSON line per leader
// DElection.observe tells, until stdin closes.
import io.dlock.DElection;
import io.dlock.DLockClient;

public final class ElectionWatch {
  public static void main(String[] args) throws Exception {
    try (DLockClient client = DLockClient.connect(args[0]);
        DElection election = client.getElection(args[1])) {
      election.observe(leader -> {
        synchronized (System.out) {
          System.out.println("{\"term\":" + leader.term() + ",\"value\":\"" + leader.value() + "\"}");
          System.out.flush();
        }
      });
      while (System.in.read() != -1) {
        // Runs until the driver closes our stdin.
      }
    }
  }
}
