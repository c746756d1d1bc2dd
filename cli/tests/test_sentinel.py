"""dlock run through a redis-sentinel:// URL: the lock is taken on the master the
sentinels name, and held there (with replica sync) while the command runs."""
import subprocess
import sys
import unittest
from pathlib import Path

from dlock_case import DLOCK, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from redis_server import SentinelSet  # noqa: E402


class Sentinel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sentinels = SentinelSet().start()

    @classmethod
    def tearDownClass(cls):
        cls.sentinels.stop()

    def test_run_takes_the_lock_on_the_master_the_sentinels_name(self):
        url = self.sentinels.url.replace("#", "?sync_replicas=1#")
        master = self.sentinels.node(self.sentinels.master_port())
        runner = subprocess.Popen(
            [DLOCK, "run", "--url", url, "nightly", "--", sys.executable, "-c",
             "import sys; sys.stdin.read()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_until(lambda: master.cli("EXISTS", "nightly") == "1", what="the lock on the master")
            # sync_replicas=1: the master and at least one replica have it
            # (the other replica may still be catching up).
            holding = [node for node in self.sentinels.nodes() if node.cli("EXISTS", "nightly") == "1"]
            self.assertGreaterEqual(len(holding), 2)
            runner.stdin.close()  # the command ends: dlock releases the lock
            self.assertEqual(runner.wait(timeout=30), 0, runner.stderr.read())
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
            runner.stdout.close()
            runner.stderr.close()
        self.assertEqual(master.cli("EXISTS", "nightly"), "0")

    def test_an_unknown_master_name_is_a_clean_connection_error(self):
        url = self.sentinels.url.replace("#m", "#no-such-master")
        done = subprocess.run([DLOCK, "run", "--url", url, "nightly", "--", "true"],
                              capture_output=True, text=True, timeout=30)
        self.assertNotEqual(done.returncode, 0)
        self.assertRegex(done.stderr, r"^dlock: \S")
        self.assertIn("no-such-master", done.stderr)


if __name__ == "__main__":
    unittest.main()
