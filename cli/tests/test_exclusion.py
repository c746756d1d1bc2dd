"""Concurrent dlock run on one name never overlap, and their tokens rise."""
import subprocess
import sys
import unittest

from dlock_case import DLOCK, DlockTestCase
from sections import RECORDER, find_violations, read_log

RUNNERS = 4
RUNS_EACH = 5


class Exclusion(DlockTestCase):
    def test_the_checker_flags_overlaps_and_stale_tokens(self):
        self.assertEqual(find_violations([(0.0, 1.0, 1), (1.0, 2.0, 2)]), [])
        self.assertEqual(len(find_violations([(0.0, 1.0, 1), (0.5, 2.0, 2)])), 1)
        self.assertEqual(len(find_violations([(0.0, 1.0, 2), (1.5, 2.0, 1)])), 1)

    def test_concurrent_runs_never_overlap(self):
        log = self.path("sections")
        # Each runner is a loop of dlock runs, so that they contend throughout.
        loop = (f'for i in $(seq {RUNS_EACH}); do '
                f'"$0" run job -- "{sys.executable}" "{RECORDER}" "{log}" 0.05 || exit 1; done')
        runners = [subprocess.Popen(["sh", "-c", loop, DLOCK], env=self.env)
                   for _ in range(RUNNERS)]
        for runner in runners:
            self.addCleanup(lambda r=runner: r.poll() is None and r.kill())
        for runner in runners:
            self.assertEqual(runner.wait(timeout=120), 0)
        sections = read_log(log)
        self.assertEqual(len(sections), RUNNERS * RUNS_EACH)
        self.assertEqual(find_violations(sections), [])


if __name__ == "__main__":
    unittest.main()
