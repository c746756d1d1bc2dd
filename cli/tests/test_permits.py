"""dlock run --permits N: at most N runs at once, each under a leased permit."""
import os
import signal
import subprocess
import sys
import time
import unittest

from dlock_case import DLOCK, DlockTestCase, wait_until
from sections import RECORDER
from test_signals_and_loss import TRAPPING

PERMITS = 2
RUNNERS = 4
RUNS_EACH = 3


def most_at_once(sections):
    """The largest number of sections open at one instant."""
    edges = sorted([(start, 1) for start, _, _ in sections] + [(end, -1) for _, end, _ in sections])
    inside = most = 0
    for _, step in edges:
        inside += step
        most = max(most, inside)
    return most


class Permits(DlockTestCase):
    def test_the_check_counts_overlapping_runs(self):
        self.assertEqual(most_at_once([(0.0, 1.0, 0), (1.0, 2.0, 0)]), 1)
        self.assertEqual(most_at_once([(0.0, 1.0, 0), (0.5, 2.0, 0), (0.7, 0.8, 0)]), 3)

    def test_at_most_n_runs_at_once(self):
        log = self.path("sections")
        loop = (f'for i in $(seq {RUNS_EACH}); do '
                f'"$0" run --permits {PERMITS} pool -- sh -c '
                f'\'DLOCK_FENCING_TOKEN=0 exec "$1" "$2" "$3" 0.1\' sh "{sys.executable}" "{RECORDER}" "{log}"'
                f' || exit 1; done')
        runners = [subprocess.Popen(["sh", "-c", loop, DLOCK], env=self.env) for _ in range(RUNNERS)]
        for runner in runners:
            self.addCleanup(lambda r=runner: r.poll() is None and r.kill())
        for runner in runners:
            self.assertEqual(runner.wait(timeout=120), 0)
        with open(log) as lines:
            sections = [(float(a), float(b), 0) for a, b, _ in (line.split() for line in lines)]
        self.assertEqual(len(sections), RUNNERS * RUNS_EACH)
        self.assertLessEqual(most_at_once(sections), PERMITS)
        self.assertEqual(most_at_once(sections), PERMITS, "the permits were never all in use")
        self.assertEqual(self.redis.cli("GET", "pool"), str(PERMITS), "a permit was not given back")

    def test_the_command_sees_its_permit_id_and_a_full_pool_is_a_conflict(self):
        holders = [self.start_dlock("run", "--permits", "1", "pool", "--", "sh", "-c",
                                    'echo "$DLOCK_PERMIT_ID"; sleep 30')]
        permit_id = holders[0].stdout.readline().strip()
        self.assertRegex(permit_id, r"^[0-9a-f]{32}$")
        self.assertEqual(self.redis.cli("ZCARD", "{pool}:timeout"), "1")
        code, _, _ = self.dlock("run", "--permits", "1", "-n", "pool", "--", "true")
        self.assertEqual(code, 75)
        holders[0].terminate()
        holders[0].wait(timeout=10)
        self.assertEqual(self.redis.cli("ZCARD", "{pool}:timeout"), "0")
        code, _, _ = self.dlock("run", "--permits", "1", "-n", "pool", "--", "true")
        self.assertEqual(code, 0)

    def test_taking_the_permit_away_stops_the_command(self):
        marker = self.path("signal")
        process = self.start_dlock("run", "--permits", "1", "--lease", "600ms", "pool", "--", "sh", "-c",
                                   TRAPPING, "sh", marker)
        wait_until(lambda: os.path.exists(marker + ".ready"), what="the command to start")
        self.redis.cli("DEL", "{pool}:timeout")
        self.assertEqual(process.wait(timeout=10), 79)
        with open(marker) as f:
            self.assertEqual(f.read().strip(), "TERM")
        self.assertIn("lost its permit of 'pool'", process.stderr.read())

    def test_a_signal_while_waiting_for_a_permit_gives_up_the_wait(self):
        self.start_dlock("run", "--permits", "1", "pool", "--", "sleep", "30")
        wait_until(lambda: self.redis.cli("ZCARD", "{pool}:timeout") == "1", what="the permit to be taken")
        waiter = self.start_dlock("run", "--permits", "1", "pool", "--", "touch", self.path("ran"))
        time.sleep(0.3)
        self.assertIsNone(waiter.poll(), "still waiting for a permit")
        started = time.monotonic()
        waiter.send_signal(signal.SIGINT)
        self.assertEqual(waiter.wait(timeout=5), 128 + signal.SIGINT)
        self.assertLess(time.monotonic() - started, 2.0)
        self.assertFalse(os.path.exists(self.path("ran")))
        self.assertEqual(self.redis.cli("ZCARD", "{pool}:timeout"), "1", "the holder's permit untouched")

    def test_bad_permit_counts_are_usage_errors(self):
        for bad in ("0", "-1", "x"):
            code, _, err = self.dlock("run", "--permits", bad, "pool", "--", "true")
            self.assertEqual(code, 64, bad)
            self.assert_clean_error(err)
        code, _, err = self.dlock("run", "--permits", "2", "--hold-after-success", "1h", "pool", "--", "true")
        self.assertEqual(code, 64)


if __name__ == "__main__":
    unittest.main()
