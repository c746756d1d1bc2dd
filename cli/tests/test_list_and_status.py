"""dlock status: who holds a lock (host and pid of a dlock run) and its exit status;
dlock list: the locks under a prefix."""
import json
import os
import socket
import unittest

from dlock_case import DlockTestCase, wait_until


class HolderAndList(DlockTestCase):
    def hold(self, name, *options):
        """A dlock run holding `name` until the test ends; its pid once noted."""
        process = self.start_dlock("run", *options, name, "--", "sleep", "30")
        wait_until(lambda: self.redis.cli("EXISTS", f"dlock_holder:{{{name}}}") == "1",
                   what=f"the holder note of {name}")
        return process

    def status(self, name):
        code, out, err = self.dlock("status", "--json", name)
        self.assertIn(code, (0, 3), err)
        return code, json.loads(out)

    def test_status_names_the_host_and_pid_of_the_holder(self):
        holder = self.hold("job")
        code, status = self.status("job")
        self.assertEqual(code, 0)
        self.assertEqual(status["holders"][0]["host"], socket.gethostname())
        self.assertEqual(status["holders"][0]["pid"], holder.pid)
        code, out, _ = self.dlock("status", "job")
        self.assertIn(f"holder host: {socket.gethostname()}, pid {holder.pid}", out)

    def test_status_exits_3_once_the_holder_released(self):
        self.assertEqual(self.dlock("run", "job", "--", "true")[0], 0)
        code, status = self.status("job")
        self.assertEqual(code, 3)
        self.assertFalse(status["locked"])

    def test_a_note_left_by_an_earlier_holder_is_not_shown(self):
        # The note key outlives the hold (like the fencing counter); a holder that
        # wrote none (a library user) must not be shown with the last run's host.
        self.assertEqual(self.dlock("run", "job", "--", "true")[0], 0)
        self.assertEqual(self.redis.cli("EXISTS", "dlock_holder:{job}"), "1")
        self.redis.cli("HSET", "job", "other-client:1", "1")
        code, status = self.status("job")
        self.assertEqual(code, 0)
        self.assertIsNone(status["holders"][0]["host"])
        self.assertIsNone(status["holders"][0]["pid"])

    def test_a_kept_hold_still_names_its_host(self):
        code, _, err = self.dlock("run", "--hold-after-success", "1d", "daily", "--", "true")
        self.assertEqual(code, 0, err)
        code, status = self.status("daily")
        self.assertEqual(code, 0)
        self.assertTrue(status["holders"][0]["id"].endswith(":kept"))
        self.assertEqual(status["holders"][0]["host"], socket.gethostname())

    def test_list_shows_the_locks_under_a_prefix_only(self):
        first = self.hold("jobs:a")
        second = self.hold("jobs:b")
        self.hold("other:c")
        self.redis.cli("HSET", "jobs:not-a-lock", "field", "text")  # another program's hash
        self.redis.cli("HSET", "jobs:counters", "views", "10")  # one with integer values
        self.redis.cli("SET", "jobs:string", "x")
        code, out, err = self.dlock("list", "--json", "jobs:")
        self.assertEqual(code, 0, err)
        listed = {entry["name"]: entry for entry in json.loads(out)}
        self.assertEqual(set(listed), {"jobs:a", "jobs:b"})
        self.assertEqual(listed["jobs:a"]["holders"][0]["pid"], first.pid)
        self.assertEqual(listed["jobs:b"]["holders"][0]["pid"], second.pid)
        for entry in listed.values():
            self.assertGreater(entry["lease_remaining_ms"], 0)
            self.assertEqual(str(entry["last_fencing_token"]),
                             self.redis.cli("GET", f"redisson_lock_token:{{{entry['name']}}}"))

    def test_status_and_run_refuse_a_key_that_is_not_a_lock_alike(self):
        self.redis.cli("SET", "a-string", "x")
        self.redis.cli("HSET", "counters", "views", "10")
        for name in ("a-string", "counters"):
            with self.subTest(name=name):
                status_code, _, status_err = self.dlock("status", name)
                run_code, _, run_err = self.dlock("run", "--wait", "5s", name, "--",
                                                  "touch", self.path("ran"))
                self.assertEqual((status_code, run_code), (69, 69))
                for err in (status_err, run_err):
                    self.assert_clean_error(err)
                    self.assertIn(f"'{name}' is not a lock", err)
                self.assertFalse(os.path.exists(self.path("ran")))
        self.assertEqual(self.redis.cli("HGETALL", "counters"), "views\n10", "left as it was")

    def test_list_text_has_one_line_per_lock(self):
        holder = self.hold("jobs:a")
        code, out, _ = self.dlock("list", "jobs:")
        self.assertEqual(code, 0)
        name, where, lease, token = out.strip().split("\t")
        self.assertEqual((name, where), ("jobs:a", f"{socket.gethostname()} pid {holder.pid}"))
        self.assertRegex(lease, r"^\d+ms$")
        self.assertEqual(token, self.redis.cli("GET", "redisson_lock_token:{jobs:a}"))

    def test_glob_characters_in_the_prefix_match_literally(self):
        self.hold("a*b")
        self.hold("axb")
        code, out, _ = self.dlock("list", "--json", "a*")
        self.assertEqual(code, 0)
        self.assertEqual([entry["name"] for entry in json.loads(out)], ["a*b"])

    def test_list_of_an_unreachable_server_fails_cleanly(self):
        self.env["DLOCK_URL"] = "redis://127.0.0.1:1"
        code, _, err = self.dlock("list")
        self.assertEqual(code, 69)
        self.assert_clean_error(err)


if __name__ == "__main__":
    unittest.main()
