"""Once-per-period jobs: --hold-after-success and --max-attempts."""
import os
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

    def test_without_a_wait_a_run_waits_only_until_its_period_ends(self):
        # Early in a 3s period, so that the two runs share it.
        wait_until(lambda: ms_to_end_of_period(3000) > 2500, timeout=4, what="a period to start")
        self.assertEqual(self.dlock("run", "--hold-after-success", "3s", "tick", "--", "true")[0], 0)
        started = time.monotonic()
        code, _, err = self.dlock("run", "--hold-after-success", "3s", "tick", "--",
                                  "touch", self.path("ran"), timeout=10)
        # Waiting on, it would have run in the next period once the kept hold ran out.
        self.assertEqual(code, 75, err)
        self.assertFalse(os.path.exists(self.path("ran")))
        self.assertLess(time.monotonic() - started, 4.0)

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

    def test_nodes_fired_together_retry_with_wait_as_docs_cli_recommends(self):
        # The crontab line of docs/cli.md: every node fires at once with --wait. The
        # first node's run fails, so a waiting node takes the lock and tries again;
        # its success keeps the lock, and the last node gives up when its wait ends.
        runs = self.path("runs")
        job = f"echo run >> {runs}; [ $(wc -l < {runs}) -ge 2 ]"
        nodes = [self.start_dlock("run", "--wait", "3s", "--hold-after-success", "1d",
                                  "--max-attempts", "3", "report", "--", "sh", "-c", job)
                 for _ in range(3)]
        codes = sorted(node.wait(timeout=30) for node in nodes)
        self.assertEqual(codes, [0, 1, 75])
        with open(runs) as ran:
            self.assertEqual(len(ran.readlines()), 2)
        self.assertTrue(self.redis.cli("HKEYS", "report").endswith(":kept"))

    def test_nonblocking_nodes_fired_together_do_not_retry(self):
        # Why the docs do not recommend -n for fleets: the others fail fast while the
        # first node runs, so nobody is left to retry after its failure.
        runs = self.path("runs")
        job = f"echo run >> {runs}; sleep 0.5; exit 1"
        nodes = [self.start_dlock("run", "-n", "--hold-after-success", "1d", "--max-attempts",
                                  "3", "report", "--", "sh", "-c", job) for _ in range(3)]
        codes = sorted(node.wait(timeout=30) for node in nodes)
        self.assertEqual(codes, [1, 75, 75])
        self.assertFalse(self.is_locked("report"))


if __name__ == "__main__":
    unittest.main()
