"""dlock elect runs COMMAND only while leader; dlock leader shows who leads."""
import json
import os
import re
import signal
import socket
import sys
import time
import unittest

from dlock_case import DlockTestCase, wait_until
from leader_job import JOB, STOPPED_EXIT, find_violations, read_terms
from test_signals_and_loss import is_running

ISO_LOCAL_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d"


class Leader(DlockTestCase):
    def test_no_leader_exits_3(self):
        code, out, err = self.dlock("leader", "jobs")
        self.assertEqual((code, err), (3, ""))
        self.assertEqual(out, "name: jobs\nleader: none\n")
        code, out, _ = self.dlock("leader", "--json", "jobs")
        self.assertEqual(code, 3)
        self.assertEqual(json.loads(out), {"name": "jobs", "value": None, "term": None, "since_ms": None})

    def test_the_leader_is_shown_with_its_value_term_and_start(self):
        seen = self.path("seen")
        started_ms = time.time() * 1000
        self.start_dlock("elect", "jobs", "--value", "web1 primary", "--", "sh", "-c",
                         'echo "$DLOCK_TERM $DLOCK_ELECTION" > "$1.tmp" && mv "$1.tmp" "$1"; exec sleep 60',
                         "sh", seen)
        wait_until(lambda: os.path.exists(seen), what="the command to start")
        with open(seen) as f:
            term, election = f.read().split()
        self.assertEqual(election, "jobs")

        code, out, err = self.dlock("leader", "jobs")
        self.assertEqual((code, err), (0, ""))
        self.assertRegex(out, rf"^name: jobs\nleader: web1 primary\nterm: {term}\nsince: {ISO_LOCAL_TIME}\n$")

        code, out, _ = self.dlock("leader", "jobs", "--json")
        self.assertEqual(code, 0)
        leader = json.loads(out)
        self.assertEqual(set(leader), {"name", "value", "term", "since_ms"})
        self.assertEqual((leader["name"], leader["value"], leader["term"]), ("jobs", "web1 primary", int(term)))
        self.assertLess(abs(leader["since_ms"] - started_ms), 60_000)

    def test_the_value_defaults_to_host_and_pid(self):
        process = self.start_dlock("elect", "jobs", "--", "sleep", "60")
        wait_until(lambda: self.dlock("leader", "jobs")[0] == 0, what="a leader")
        leader = json.loads(self.dlock("leader", "--json", "jobs")[1])
        self.assertEqual(leader["value"], f"{socket.gethostname()}:{process.pid}")

    def test_watch_prints_every_leader_in_order_until_interrupted(self):
        watcher = self.start_dlock("leader", "--watch", "--json", "jobs")
        time.sleep(0.5)  # observing from before the first leader
        for value in ("first", "second", "third"):
            code, _, err = self.dlock("elect", "jobs", "--value", value, "--", "true")
            self.assertEqual((code, err), (0, ""))
        time.sleep(1)
        watcher.send_signal(signal.SIGINT)
        out, err = watcher.communicate(timeout=10)
        self.assertEqual((watcher.returncode, err), (0, ""))
        leaders = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([leader["value"] for leader in leaders], ["first", "second", "third"])
        terms = [leader["term"] for leader in leaders]
        self.assertEqual(terms, sorted(set(terms)), "terms rise, none told twice")

    def test_unreachable_redis(self):
        self.env["DLOCK_URL"] = "redis://127.0.0.1:1"
        for args in (("leader", "jobs"), ("elect", "jobs", "--", "true")):
            with self.subTest(args=args):
                code, _, err = self.dlock(*args)
                self.assertEqual(code, 69)
                self.assert_clean_error(err)

    def test_usage_errors(self):
        for args in (("leader",), ("leader", "a", "b"), ("elect",), ("elect", "jobs"), ("elect", "jobs", "--"),
                     ("elect", "--bogus", "jobs", "--", "true"), ("elect", "--grace", "soon", "jobs", "--", "true")):
            with self.subTest(args=args):
                code, _, err = self.dlock(*args)
                self.assertEqual(code, 64)
                self.assert_clean_error(err)


class Elect(DlockTestCase):
    def elect(self, log, *options, seconds=60, name="jobs"):
        return self.start_dlock("elect", *options, name, "--", sys.executable, JOB, log, str(seconds))

    def running(self, log):
        """{pid: entry} of the commands that started and did not stop (nor die killed)."""
        return {pid: e for pid, e in read_terms(log).items()
                if e["start"] is not None and e["stop"] is None and is_running(pid)}

    def test_a_command_that_ends_by_itself_ends_dlock_with_its_status_and_resigns(self):
        log = self.path("terms")
        first = self.start_dlock("elect", "jobs", "--", sys.executable, JOB, log, "0.5", "7")
        self.assertEqual(first.wait(timeout=15), 7)
        self.assertEqual(self.dlock("leader", "jobs")[0], 3, "resigned")
        entry, = read_terms(log).values()
        self.assertIsNotNone(entry["stop"])

    def test_a_command_not_found_gives_the_leadership_up(self):
        code, _, err = self.dlock("elect", "--lease", "30s", "jobs", "--", "no-such-command-dlock")
        self.assertEqual(code, 127)
        self.assert_clean_error(err)
        self.assertEqual(self.dlock("leader", "jobs")[0], 3, "resigned, not left to lapse")

    def test_a_resign_hands_over_at_once(self):
        log = self.path("terms")
        first = self.start_dlock("elect", "--lease", "30s", "jobs", "--", sys.executable, JOB, log, "1", "0")
        wait_until(lambda: read_terms(log), what="the first leader")
        second = self.elect(log, "--lease", "30s")
        self.assertEqual(first.wait(timeout=15), 0)
        ended = time.monotonic()
        wait_until(lambda: len(read_terms(log)) == 2, timeout=5, what="the second leader")
        self.assertLess(time.monotonic() - ended, 3, "well under the 30s lease")
        second.send_signal(signal.SIGTERM)
        self.assertEqual(second.wait(timeout=15), STOPPED_EXIT)
        self.assertEqual(find_violations(read_terms(log)), [])

    def test_a_signal_while_campaigning_ends_the_wait(self):
        log = self.path("terms")
        self.elect(log)
        wait_until(lambda: self.running(log), what="a leader")
        waiting = self.elect(log)
        time.sleep(0.5)
        self.assertIsNone(waiting.poll(), "still campaigning")
        waiting.send_signal(signal.SIGINT)
        self.assertEqual(waiting.wait(timeout=5), 128 + signal.SIGINT)
        self.assertEqual(len(read_terms(log)), 1, "its command never ran")

    def test_three_candidates_one_leader_at_a_time(self):
        log = self.path("terms")
        lease = 4.0
        candidates = {}
        for _ in range(3):
            process = self.elect(log, "--lease", f"{int(lease)}s")
            candidates[process.pid] = process
        ended_by = {}  # a killed leader's command, killed with it, writes no stop line

        def current_leader():
            wait_until(lambda: len(self.running(log)) == 1, timeout=lease + 5, what="a leader")
            time.sleep(0.3)  # no second one starts
            running = self.running(log)
            self.assertEqual(len(running), 1, running)
            (command_pid, entry), = running.items()
            self.assertIn(entry["ppid"], candidates, "the command is a candidate's child")
            self.assertEqual(entry["election"], "jobs")
            return command_pid, candidates.pop(entry["ppid"])

        # A leader told to stop stops its command, resigns, and another takes over promptly.
        command_pid, leader = current_leader()
        leader.send_signal(signal.SIGTERM)
        stopped_at = time.monotonic()
        self.assertEqual(leader.wait(timeout=10), STOPPED_EXIT, "the command's status")
        wait_until(lambda: len(read_terms(log)) == 2, timeout=lease / 2, what="a prompt takeover")
        self.assertLess(time.monotonic() - stopped_at, lease / 2, "well under the lease")
        self.assertIsNotNone(read_terms(log)[command_pid]["stop"], "stopped by SIGTERM")

        # A leader killed with SIGKILL takes its command with it; another takes
        # over once the lease runs out.
        command_pid, leader = current_leader()
        leader.kill()
        killed_at = time.monotonic()
        leader.wait(timeout=5)
        wait_until(lambda: not is_running(command_pid), timeout=2, what="the command to die with dlock")
        ended_by[command_pid] = time.monotonic()
        wait_until(lambda: len(read_terms(log)) == 3, timeout=lease + 3, what="a takeover after the lease")
        self.assertGreater(time.monotonic() - killed_at, lease / 2, "not before the lease ran out")

        command_pid, leader = current_leader()
        leader.send_signal(signal.SIGINT)
        self.assertEqual(leader.wait(timeout=10), 128 + signal.SIGINT, "forwarded: the command's status")
        self.assertEqual(self.dlock("leader", "jobs")[0], 3, "the last one resigned")

        terms = read_terms(log)
        self.assertEqual(len(terms), 3)
        self.assertEqual(find_violations(terms, ended_by), [])

    def test_a_lost_leadership_stops_the_command_and_campaigns_again(self):
        log = self.path("terms")
        process = self.elect(log, "--lease", "1500ms", "--grace", "5s")
        wait_until(lambda: self.running(log), what="a leader")
        first_pid, first = next(iter(self.running(log).items()))
        self.redis.cli("DEL", "dlock_election:{jobs}")
        # The next renewal (every third of the lease) finds the leadership gone.
        wait_until(lambda: read_terms(log)[first_pid]["stop"] is not None, timeout=3,
                   what="the command to get SIGTERM")
        wait_until(lambda: self.running(log), timeout=5, what="the next term")
        (second_pid, second), = self.running(log).items()
        self.assertNotEqual(second_pid, first_pid)
        self.assertGreater(second["term"], first["term"])
        self.assertEqual(second["ppid"], process.pid)
        self.assertEqual(find_violations(read_terms(log)), [])
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(timeout=10), STOPPED_EXIT)
        self.assertIn("lost the leadership of 'jobs'", process.stderr.read())

    def test_a_command_that_ignores_sigterm_is_killed_after_the_grace(self):
        ready = self.path("ready")
        process = self.start_dlock("elect", "--grace", "500ms", "jobs", "--", "sh", "-c",
                                   'trap "" TERM; touch "$1"; while :; do sleep 0.05; done', "sh", ready)
        wait_until(lambda: os.path.exists(ready), what="the command to start")
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        self.assertEqual(process.wait(timeout=10), 128 + signal.SIGKILL)
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(self.dlock("leader", "jobs")[0], 3, "resigned")


if __name__ == "__main__":
    unittest.main()
