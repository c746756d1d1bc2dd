"""Once-per-period jobs: --hold-after-success and --max-attempts."""
import time
import unittest

from dlock_case import DlockTestCase, wait_until

DAY_MS = 24 * 3600 * 1000


def ms_to_end_of_period(period_ms):
    now = int(time.time() * 1000)
    return period_ms - now % period_ms


class OncePerPeriod(DlockTestCase):
    def run_job(self, command, *options):
        return self.dlock("run", "-n", "--hold-after-success", "1d", *options, "report",
                          "--", "sh", "-c", command)[0]

    def test_a_success_keeps_the_lock_until_the_period_ends(self):
        self.assertEqual(self.run_job("exit 0"), 0)
        self.assertEqual(self.run_job("echo ran twice"), 75, "other runs skip the period")
        pttl = int(self.redis.cli("PTTL", "report"))
        self.assertAlmostEqual(pttl, ms_to_end_of_period(DAY_MS), delta=5000)
        self.assertTrue(self.redis.cli("HKEYS", "report").endswith(":kept"))
        # Nothing renews or releases the kept hold: it just runs out.
        time.sleep(1.2)
        self.assertLess(int(self.redis.cli("PTTL", "report")), pttl - 1000)

    def test_the_lock_is_free_again_in_the_next_period(self):
        period = "2s"
        self.assertEqual(self.dlock("run", "-n", "--hold-after-success", period, "tick",
                                    "--", "true")[0], 0)
        self.assertTrue(self.is_locked("tick"))
        wait_until(lambda: not self.is_locked("tick"), timeout=3, what="the period to end")
        self.assertEqual(self.dlock("run", "-n", "--hold-after-success", period, "tick",
                                    "--", "true")[0], 0)

    def test_a_failure_releases_at_once_so_another_node_may_retry(self):
        self.assertEqual(self.run_job("exit 4"), 4)
        self.assertFalse(self.is_locked("report"))
        self.assertEqual(self.run_job("exit 0"), 0)

    def test_max_attempts_gives_up_once_reached_in_the_period(self):
        self.assertEqual(self.run_job("exit 1", "--max-attempts", "2"), 1)
        self.assertEqual(self.run_job("exit 1", "--max-attempts", "2"), 1)
        code, _, err = self.dlock("run", "-n", "--hold-after-success", "1d", "--max-attempts",
                                  "2", "report", "--", "touch", self.path("ran"))
        self.assertEqual(code, 80)
        self.assertIn("giving up", err)
        self.assertFalse(self.is_locked("report"))
        counters = self.redis.cli("KEYS", "dlock_attempts:*").split()
        self.assertEqual(len(counters), 1)
        self.assertTrue(counters[0].startswith("dlock_attempts:{report}:"))
        self.assertEqual(self.redis.cli("GET", counters[0]), "2")
        ttl = int(self.redis.cli("PTTL", counters[0]))
        self.assertAlmostEqual(ttl, ms_to_end_of_period(DAY_MS), delta=5000)

    def test_a_success_within_the_attempts_ends_the_period(self):
        self.assertEqual(self.run_job("exit 1", "--max-attempts", "3"), 1)
        self.assertEqual(self.run_job("exit 0", "--max-attempts", "3"), 0)
        self.assertEqual(self.run_job("exit 0", "--max-attempts", "3"), 75)


if __name__ == "__main__":
    unittest.main()
