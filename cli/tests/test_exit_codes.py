"""dlock run's exit codes, environment and errors; status and release."""
import json
import os
import stat
import time
import unittest

from dlock_case import DlockTestCase


class ExitCodes(DlockTestCase):
    def test_exits_with_the_commands_status(self):
        self.assertEqual(self.dlock("run", "job", "--", "sh", "-c", "exit 3")[0], 3)
        self.assertEqual(self.dlock("run", "job", "--", "true")[0], 0)
        self.assertFalse(self.is_locked("job"), "released after the command")

    def test_a_command_ended_by_a_signal_gives_128_plus_the_signal(self):
        self.assertEqual(self.dlock("run", "job", "--", "sh", "-c", "kill -9 $$")[0], 128 + 9)

    def test_the_command_sees_the_name_and_the_fencing_token(self):
        code, out, _ = self.dlock("run", "job", "--", "sh", "-c",
                                  'echo "$DLOCK_NAME $DLOCK_FENCING_TOKEN"')
        self.assertEqual(code, 0)
        name, token = out.split()
        self.assertEqual(name, "job")
        self.assertEqual(token, self.redis.cli("GET", "redisson_lock_token:{job}"))
        _, out, _ = self.dlock("run", "job", "--", "sh", "-c", 'echo "$DLOCK_FENCING_TOKEN"')
        self.assertGreater(int(out), int(token))

    def test_a_held_lock_gives_the_conflict_exit_code(self):
        self.start_dlock("run", "job", "--", "sleep", "30")
        self.wait_locked("job")
        self.assertEqual(self.dlock("run", "-n", "job", "--", "true")[0], 75)
        self.assertEqual(self.dlock("run", "--nonblock", "-E", "9", "job", "--", "true")[0], 9)
        self.assertEqual(self.dlock("run", "--conflict-exit-code=0", "-n", "job", "--", "true")[0], 0)
        started = time.monotonic()
        self.assertEqual(self.dlock("run", "--wait", "300ms", "job", "--", "true")[0], 75)
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_a_waiting_run_starts_once_the_holder_is_done(self):
        holder = self.start_dlock("run", "job", "--", "sleep", "0.5")
        self.wait_locked("job")
        code, out, _ = self.dlock("run", "--wait", "10s", "job", "--", "echo", "ran")
        self.assertEqual((code, out), (0, "ran\n"))
        self.assertEqual(holder.wait(timeout=10), 0)

    def test_command_not_found_or_not_executable(self):
        code, _, err = self.dlock("run", "job", "--", "/nonexistent/command")
        self.assertEqual(code, 127)
        self.assert_clean_error(err)
        script = self.path("not-executable")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(script, stat.S_IRUSR)
        code, _, err = self.dlock("run", "job", "--", script)
        self.assertEqual(code, 126)
        self.assert_clean_error(err)
        self.assertFalse(self.is_locked("job"))

    def test_usage_errors_say_what_is_wrong(self):
        cases = {
            ("run", "--wait", "10", "job", "--", "true"): "has no unit",
            ("run", "--wait", "5x", "job", "--", "true"): "unknown unit 'x'",
            ("run", "--bogus", "job", "--", "true"): "unknown option '--bogus'",
            ("run", "job"): "missing the COMMAND",
            ("run",): "missing the lock NAME",
            ("run", "--max-attempts", "2", "job", "--", "true"): "needs --hold-after-success",
            ("run", "-E", "300", "job", "--", "true"): "not an integer from 0 to 255",
            ("run", "--url", "http://x", "job", "--", "true"): "url",
            ("run", "a{", "--", "true"): "hash tag",
            ("release", "job"): "--force",
            ("frobnicate",): "unknown command",
            (): "missing a command",
        }
        for args, message in cases.items():
            with self.subTest(args=args):
                code, _, err = self.dlock(*args)
                self.assertEqual(code, 64, err)
                self.assert_clean_error(err)
                self.assertIn(message, err)

    def test_unreachable_redis(self):
        self.env["DLOCK_URL"] = "redis://127.0.0.1:1"
        code, _, err = self.dlock("run", "job", "--", "true")
        self.assertEqual(code, 69)
        self.assert_clean_error(err)
        self.assertIn("cannot connect to the redis server", err)

    def test_help(self):
        code, out, _ = self.dlock("--help")
        self.assertEqual(code, 0)
        self.assertIn("dlock run [options] NAME", out)
        self.assertIn("Exit codes", out)


class StatusAndRelease(DlockTestCase):
    def test_status_of_a_held_lock(self):
        self.start_dlock("run", "job", "--", "sleep", "30")
        self.wait_locked("job")
        code, out, _ = self.dlock("status", "job", "--json")
        self.assertEqual(code, 0)
        status = json.loads(out)
        self.assertTrue(status["locked"])
        self.assertEqual(len(status["holders"]), 1)
        self.assertEqual(status["holders"][0]["hold_count"], 1)
        self.assertIn(status["holders"][0]["id"], self.redis.cli("HKEYS", "job"))
        self.assertGreater(status["lease_remaining_ms"], 0)
        self.assertEqual(str(status["last_fencing_token"]),
                         self.redis.cli("GET", "redisson_lock_token:{job}"))
        code, out, _ = self.dlock("status", "job")
        self.assertEqual(code, 0)
        self.assertIn("locked: yes", out)

    def test_status_of_a_free_lock(self):
        code, out, _ = self.dlock("status", "--json", "never")
        self.assertEqual(code, 3, "status exits 3 when nobody holds the lock")
        self.assertEqual(json.loads(out), {"name": "never", "locked": False, "holders": [],
                                           "lease_remaining_ms": None,
                                           "last_fencing_token": None})

    def test_status_of_a_key_that_is_not_a_lock(self):
        self.redis.cli("SET", "plain", "value")
        code, _, err = self.dlock("status", "plain")
        self.assertEqual(code, 69)
        self.assertIn("not a lock", err)

    def test_an_unknown_scheme_is_a_usage_error_naming_it(self):
        # Every planned backend is in this build: a scheme dlock has none for
        # is refused before any connection.
        code, _, err = self.dlock("status", "--url", "ftp://app@127.0.0.1:1/x", "job")
        self.assertEqual(code, 64)
        self.assertIn("unknown scheme 'ftp'", err)
        self.assert_clean_error(err)

    def test_force_release_frees_the_lock_and_the_holder_learns_it(self):
        holder = self.start_dlock("run", "--lease", "900ms", "job", "--", "sleep", "30")
        self.wait_locked("job")
        code, out, _ = self.dlock("release", "--force", "job")
        self.assertEqual((code, out), (0, "released 'job'\n"))
        self.assertFalse(self.is_locked("job"))
        self.assertEqual(holder.wait(timeout=10), 79)
        self.assertEqual(self.dlock("release", "--force", "job")[1], "'job' was not locked\n")


class LibraryLog(DlockTestCase):
    def run_through_a_dropped_connection(self, *options):
        """dlock run's stderr when its connections are cut while it runs: the
        library warns that it lost them, and tells (INFO) that it connected again."""
        process = self.start_dlock("run", *options, "--lease", "900ms", "job", "--", "sleep", "1.5")
        self.wait_locked("job")
        self.redis.cli("CLIENT", "KILL", "TYPE", "normal")
        self.assertEqual(process.wait(timeout=10), 0)
        return process.stderr.read()

    def test_warnings_by_default_more_with_v_none_with_quiet(self):
        default = self.run_through_a_dropped_connection()
        self.assertRegex(default, r"dlock: warning: lost the connection to ")
        self.assertNotIn("dlock: info:", default)
        for option in ("-v", "-vv"):
            with self.subTest(option=option):
                self.assertRegex(self.run_through_a_dropped_connection(option),
                                 r"dlock: info: (subscriber: reconnected|connected) to .* again")
        self.assertEqual(self.run_through_a_dropped_connection("--quiet"), "")

    def test_status_list_and_release_take_the_same_options(self):
        self.env["DLOCK_URL"] = "redis://127.0.0.1:1"
        for command in (("status", "job"), ("list",), ("release", "--force", "job")):
            with self.subTest(command=command):
                code, _, err = self.dlock(command[0], *command[1:])
                self.assertEqual(code, 69)
                self.assertIn("dlock: warning: cannot connect to redis://127.0.0.1:1", err)
                code, _, err = self.dlock(command[0], "--quiet", *command[1:])
                self.assertEqual(code, 69)
                self.assertNotIn("warning", err)
                self.assert_clean_error(err)


if __name__ == "__main__":
    unittest.main()
