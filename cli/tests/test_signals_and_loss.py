"""Signals sent to dlock reach COMMAND; a lost lock stops COMMAND."""
import os
import signal
import time
import unittest

from dlock_case import DlockTestCase, RedisServer, wait_until

# Records the signal it gets in $1, then exits with a code telling which it was.
TRAPPING = """
trap 'echo TERM > "$1"; exit 55' TERM
trap 'echo INT > "$1"; exit 42' INT
trap 'echo HUP > "$1"; exit 41' HUP
echo ready > "$1.ready"
while :; do sleep 0.05; done
"""

# Ignores SIGTERM: only SIGKILL ends it.
STUBBORN = """
trap '' TERM
echo ready > "$1.ready"
while :; do sleep 0.05; done
"""


class SignalForwarding(DlockTestCase):
    def start_trapping(self, name, script=TRAPPING, *options):
        marker = self.path("signal")
        process = self.start_dlock("run", *options, name, "--", "sh", "-c", script, "sh", marker)
        wait_until(lambda: os.path.exists(marker + ".ready"), what="the command to start")
        return process, marker

    def test_signals_are_forwarded_and_the_commands_status_returned(self):
        for sig, name, code in ((signal.SIGTERM, "TERM", 55), (signal.SIGINT, "INT", 42),
                                (signal.SIGHUP, "HUP", 41)):
            with self.subTest(signal=name):
                process, marker = self.start_trapping("job")
                process.send_signal(sig)
                self.assertEqual(process.wait(timeout=10), code)
                with open(marker) as f:
                    self.assertEqual(f.read().strip(), name)
                self.assertFalse(self.is_locked("job"), "released after the command ended")
                os.remove(marker + ".ready")

    def test_a_signal_while_waiting_gives_up_the_wait(self):
        self.start_dlock("run", "job", "--", "sleep", "30")
        self.wait_locked("job")
        holder_field = self.redis.cli("HKEYS", "job")
        waiter = self.start_dlock("run", "job", "--", "touch", self.path("ran"))
        time.sleep(0.3)
        self.assertIsNone(waiter.poll(), "still waiting for the lock")
        started = time.monotonic()
        waiter.send_signal(signal.SIGINT)
        self.assertEqual(waiter.wait(timeout=5), 128 + signal.SIGINT)
        self.assertLess(time.monotonic() - started, 2.0)
        self.assertFalse(os.path.exists(self.path("ran")))
        self.assertEqual(self.redis.cli("HKEYS", "job"), holder_field, "holder untouched")


def is_running(pid):
    """True while pid is a live process (a zombie nobody reaped yet has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class SupervisorKilled(DlockTestCase):
    def test_the_command_dies_with_a_dlock_killed_by_sigkill(self):
        pid_file = self.path("pid")
        process = self.start_dlock("run", "job", "--", "sh", "-c", 'echo $$ > "$1"; exec sleep 1000',
                                   "sh", pid_file)
        wait_until(lambda: os.path.exists(pid_file) and os.path.getsize(pid_file) > 0,
                   what="the command to start")
        with open(pid_file) as f:
            command_pid = int(f.read())
        self.addCleanup(lambda: is_running(command_pid) and os.kill(command_pid, signal.SIGKILL))
        process.kill()
        process.wait(timeout=5)
        # Left running, it would do the job a second dlock run takes up once the
        # lease runs out.
        wait_until(lambda: not is_running(command_pid), timeout=1.5, what="the command to end")


class LostLock(DlockTestCase):
    def test_taking_the_lease_away_stops_the_command(self):
        marker = self.path("signal")
        process = self.start_dlock("run", "--lease", "600ms", "job", "--", "sh", "-c", TRAPPING,
                                   "sh", marker)
        wait_until(lambda: os.path.exists(marker + ".ready"), what="the command to start")
        self.redis.cli("DEL", "job")
        self.assertEqual(process.wait(timeout=10), 79)
        with open(marker) as f:
            self.assertEqual(f.read().strip(), "TERM")
        self.assertIn("lost the lock 'job' while 'sh' ran: it was force-released or taken by another owner",
                      process.stderr.read())

    def start_held_command(self, *options, name="job"):
        marker = self.path("signal")
        process = self.start_dlock("run", "--lease", "600ms", *options, name, "--", "sh", "-c",
                                   TRAPPING, "sh", marker)
        wait_until(lambda: os.path.exists(marker + ".ready"), what="the command to start")
        return process

    def test_a_force_release_is_named_as_the_cause(self):
        process = self.start_held_command()
        self.assertEqual(self.dlock("release", "--force", "job")[0], 0)
        self.assertEqual(process.wait(timeout=10), 79)
        self.assertIn("it was force-released or taken by another owner", process.stderr.read())

    def test_a_lease_that_ran_out_while_dlock_was_paused_is_named_as_the_cause(self):
        process = self.start_held_command()
        process.send_signal(signal.SIGSTOP)
        time.sleep(1.2)  # twice the lease: the server lets it expire
        process.send_signal(signal.SIGCONT)
        self.assertEqual(process.wait(timeout=10), 79)
        self.assertIn("its lease ran out before a renewal went through", process.stderr.read())

    def test_an_unreachable_server_is_named_as_the_cause_and_its_warnings_shown(self):
        for quiet in (False, True):
            with self.subTest(quiet=quiet), RedisServer() as own_server:
                self.env["DLOCK_URL"] = own_server.url
                process = self.start_held_command(*(["--quiet"] if quiet else []))
                own_server.kill()
                self.assertEqual(process.wait(timeout=10), 79)
                stderr = process.stderr.read()
                self.assertIn("Redis could not be reached: renewals failed until the lease ran out", stderr)
                if quiet:
                    self.assertNotIn("warning:", stderr)
                else:
                    self.assertRegex(stderr, r"dlock: warning: watchdog: renewing 1 lock\(s\) on .* failed")
                os.remove(self.path("signal.ready"))

    def test_a_command_that_ignores_sigterm_is_killed_after_the_grace_period(self):
        marker = self.path("signal")
        process = self.start_dlock("run", "--lease", "600ms", "--grace", "500ms", "job", "--",
                                   "sh", "-c", STUBBORN, "sh", marker)
        wait_until(lambda: os.path.exists(marker + ".ready"), what="the command to start")
        # Another holder takes the lock once the lease is gone from under the first.
        self.redis.cli("PEXPIRE", "job", "1")
        self.assertEqual(self.dlock("run", "--wait", "5s", "job", "--", "true")[0], 0)
        started = time.monotonic()
        self.assertEqual(process.wait(timeout=10), 79)
        self.assertLess(time.monotonic() - started, 5.0)


if __name__ == "__main__":
    unittest.main()
