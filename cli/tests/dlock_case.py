"""A test case that runs the dlock binary against a throwaway redis-server."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

# The project's one redis-server launcher.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from redis_server import RedisServer  # noqa: E402

DLOCK = os.environ.get("DLOCK_BIN", "dlock")


def wait_until(predicate, timeout=5.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class DlockTestCase(unittest.TestCase):
    """One redis-server per test class (or what start_redis gives), emptied before each test."""

    @classmethod
    def start_redis(cls):
        """The servers of the class: anything with url and stop()."""
        return RedisServer().start()

    @classmethod
    def setUpClass(cls):
        cls.redis = cls.start_redis()

    @classmethod
    def tearDownClass(cls):
        cls.redis.stop()

    def empty_redis(self):
        self.redis.cli("FLUSHALL")

    def setUp(self):
        self.empty_redis()
        self.env = dict(os.environ, DLOCK_URL=self.redis.url)
        self.work_dir = tempfile.mkdtemp(prefix="dlock-cli-work-")
        self.addCleanup(shutil.rmtree, self.work_dir, True)

    def dlock(self, *args, timeout=30):
        """Runs dlock to its end: (exit code, stdout, stderr)."""
        done = subprocess.run([DLOCK, *args], env=self.env, capture_output=True, text=True,
                              timeout=timeout)
        return done.returncode, done.stdout, done.stderr

    def start_dlock(self, *args, **popen_args):
        process = subprocess.Popen([DLOCK, *args], env=self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, **popen_args)
        self.addCleanup(self._stop, process)
        return process

    @staticmethod
    def _stop(process):
        # SIGTERM, which dlock forwards, so that COMMAND does not outlive the test.
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        process.stderr.close()

    def path(self, name):
        return os.path.join(self.work_dir, name)

    def is_locked(self, name):
        return self.redis.cli("EXISTS", name) == "1"

    def wait_locked(self, name):
        wait_until(lambda: self.is_locked(name), what=f"{name} to be locked")

    def assert_clean_error(self, stderr):
        """An error is one 'dlock: ...' line, never a crash or a stack trace."""
        self.assertRegex(stderr, r"^dlock: \S")
        for crash in ("terminate called", "Traceback", "Aborted", "Segmentation"):
            self.assertNotIn(crash, stderr)
