"""dlock on zookeeper://, against a real ZooKeeper server: what every backend does
(backend_runs), with a ZooKeeper path as the contended name, a session, not a lease, keeping
each hold."""
import sys
import unittest
from pathlib import Path

from backend_runs import BackendRuns

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from zookeeper_server import ZooKeeperServer, classpath  # noqa: E402


@unittest.skipIf(classpath() is None, "no ZooKeeper server (Debian's zookeeper, java)")
class ZooKeeperRuns(BackendRuns, unittest.TestCase):
    CONTENDED_NAME = "/jobs/report"
    HOLDS_HAVE_LEASES = False

    @classmethod
    def start_server(cls):
        return ZooKeeperServer().start()


if __name__ == "__main__":
    unittest.main()
