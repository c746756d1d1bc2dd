"""dlock on zookeeper://, against a real ZooKeeper server: concurrent runs on one name never
overlap and their tokens rise, judged by the same checker as on Redis; status and list show the
holder of a lock a run holds, and nothing once it is released."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from dlock_case import DLOCK, wait_until
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

    def dlock(self, *args):
        return subprocess.run([DLOCK, *args], env=self.env, capture_output=True, text=True, timeout=30)

    def test_status_and_list_show_the_holder_of_a_run(self):
        started = os.path.join(self.work_dir, "started")
        run = subprocess.Popen([DLOCK, "run", "nightly", "--", "sh", "-c",
                                f'echo "$DLOCK_FENCING_TOKEN" > {started}; exec sleep 30'], env=self.env)
        self.addCleanup(run.kill)
        wait_until(lambda: os.path.exists(started) and Path(started).read_text().strip(), 10, "the run's start")
        token = int(Path(started).read_text())
        status = self.dlock("status", "--json", "nightly")
        self.assertEqual(status.returncode, 0, status.stderr)
        shown = json.loads(status.stdout)
        self.assertTrue(shown["locked"])
        self.assertEqual(len(shown["holders"]), 1)
        self.assertIsNone(shown["lease_remaining_ms"], "a session's hold has no lease")
        self.assertEqual(shown["last_fencing_token"], token)
        listed = self.dlock("list", "--json")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([lock["name"] for lock in json.loads(listed.stdout)], ["nightly"])
        run.terminate()
        run.wait(10)
        after = self.dlock("status", "nightly")
        self.assertEqual(after.returncode, 3, after.stdout + after.stderr)
        self.assertEqual(json.loads(self.dlock("list", "--json").stdout), [])


if __name__ == "__main__":
    unittest.main()
