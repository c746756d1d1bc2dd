"""Concurrent dlock run on one name never overlap, and their tokens rise."""
import unittest

from dlock_case import DLOCK, DlockTestCase
from sections import contend, find_violations, read_log

RUNNERS = 4
RUNS_EACH = 5


class Exclusion(DlockTestCase):
    def test_the_checker_flags_overlaps_and_stale_tokens(self):
        self.assertEqual(find_violations([(0.0, 1.0, 1), (1.0, 2.0, 2)]), [])
        self.assertEqual(len(find_violations([(0.0, 1.0, 1), (0.5, 2.0, 2)])), 1)
        self.assertEqual(len(find_violations([(0.0, 1.0, 2), (1.5, 2.0, 1)])), 1)

    def test_concurrent_runs_never_overlap(self):
        log = self.path("sections")
        self.assertEqual(contend(DLOCK, self.env, "job", log, RUNNERS, RUNS_EACH), [0] * RUNNERS)
        sections = read_log(log)
        self.assertEqual(len(sections), RUNNERS * RUNS_EACH)
        self.assertEqual(find_violations(sections), [])


if __name__ == "__main__":
    unittest.main()
