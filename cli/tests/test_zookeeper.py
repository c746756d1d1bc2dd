"""dlock run on zookeeper://: concurrent runs on one name never overlap and their tokens rise,
judged by the same checker as on Redis, against a real ZooKeeper server."""
import os
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

from dlock_case import DLOCK
from sections import contend, find_violations, read_log

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from zookeeper_server import ZooKeeperServer, classpath  # noqa: E402

RUNNERS = 4
RUNS_EACH = 5


@unittest.skipIf(classpath() is None, "no ZooKeeper server (Debian's zookeeper, java)")
class ZooKeeperRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.zookeeper = ZooKeeperServer().start()

    @classmethod
    def tearDownClass(cls):
        cls.zookeeper.stop()

    def setUp(self):
        self.env = dict(os.environ, DLOCK_URL=self.zookeeper.url)
        self.work_dir = tempfile.mkdtemp(prefix="dlock-cli-zk-")
        self.addCleanup(shutil.rmtree, self.work_dir, True)

    def test_concurrent_runs_never_overlap(self):
        log = os.path.join(self.work_dir, "sections")
        self.assertEqual(contend(DLOCK, self.env, "/jobs/report", log, RUNNERS, RUNS_EACH), [0] * RUNNERS)
        sections = read_log(log)
        self.assertEqual(len(sections), RUNNERS * RUNS_EACH)
        self.assertEqual(find_violations(sections), [])


if __name__ == "__main__":
    unittest.main()
