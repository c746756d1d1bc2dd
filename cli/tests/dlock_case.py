"""A throwaway redis-server on a free loopback port, and helpers to run dlock against it."""
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

DLOCK = os.environ.get("DLOCK_BIN", "dlock")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(predicate, timeout=5.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class RedisServer:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="dlock-cli-test-")
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: self._answers_ping(), what="redis-server to start")

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def _answers_ping(self):
        try:
            return self.cli("PING") == "PONG"
        except subprocess.CalledProcessError:
            return False

    def cli(self, *args):
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], check=True,
                              capture_output=True, text=True).stdout.strip()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


class DlockTestCase(unittest.TestCase):
    """One redis-server per test class, emptied before each test."""

    @classmethod
    def setUpClass(cls):
        cls.redis = RedisServer()

    @classmethod
    def tearDownClass(cls):
        cls.redis.stop()

    def setUp(self):
        self.redis.cli("FLUSHALL")
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
