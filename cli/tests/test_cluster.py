"""The dlock command on a Redis Cluster (3 masters, 3 replicas) reached through one seed:
dlock run takes the lock on the master serving the name, dlock status finds its holder
there, and dlock list looks at every master."""
import json
import subprocess
import sys
import unittest
from pathlib import Path

from dlock_case import DlockTestCase, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from redis_server import ClusterSet  # noqa: E402


class Cluster(DlockTestCase):
    @classmethod
    def start_redis(cls):
        return ClusterSet().start()

    def empty_redis(self):
        for master in self.redis.masters():
            master.cli("FLUSHALL")

    def is_locked(self, name):
        return self.redis.master_of(name).cli("EXISTS", name) == "1"

    def hold(self, name):
        """A dlock run holding `name` until the test ends, once its holder note is written."""
        process = self.start_dlock("run", name, "--", "sleep", "30")
        note = f"dlock_holder:{{{name}}}"
        wait_until(lambda: process.poll() is not None
                   or self.redis.master_of(note).cli("EXISTS", note) == "1",
                   what=f"the holder note of {name}")
        if process.poll() is not None:
            self.fail(f"dlock run ended: {process.stderr.read()}")
        return process

    def test_run_holds_the_lock_on_the_names_master_while_the_command_runs(self):
        for name in self.redis.names_on_each_master("nightly"):
            marker = self.path(f"{name}.ran")
            runner = self.start_dlock(
                "run", name, "--", sys.executable, "-c",
                f"import sys; open({marker!r}, 'w').close(); sys.stdin.read()",
                stdin=subprocess.PIPE)
            wait_until(lambda: Path(marker).exists(), what=f"the command under {name}")
            self.assertTrue(self.is_locked(name), f"{name} is held on its master")
            runner.stdin.close()  # the command ends: dlock releases the lock
            self.assertEqual(runner.wait(timeout=30), 0, runner.stderr.read())
            self.assertFalse(self.is_locked(name))

    def test_run_on_a_name_held_elsewhere_waits_no_longer_than_asked(self):
        name = self.redis.names_on_each_master("busy")[1]
        self.hold(name)
        code, _, err = self.dlock("run", "--wait", "300ms", name, "--", "true")
        self.assertEqual(code, 75, err)

    def test_status_shows_the_holder_and_exits_3_when_not_held(self):
        for name in self.redis.names_on_each_master("status"):
            holder = self.hold(name)
            code, out, err = self.dlock("status", "--json", name)
            self.assertEqual(code, 0, err)
            status = json.loads(out)
            self.assertTrue(status["locked"])
            self.assertEqual(status["holders"][0]["pid"], holder.pid)
            self._stop(holder)
            code, out, err = self.dlock("status", "--json", name)
            self.assertEqual(code, 3, err)
            self.assertFalse(json.loads(out)["locked"])

    def test_list_finds_the_locks_under_a_prefix_on_every_master(self):
        names = self.redis.names_on_each_master("jobs:x")
        holders = {name: self.hold(name) for name in names}
        self.hold("other:y")
        code, out, err = self.dlock("list", "--json", "jobs:")
        self.assertEqual(code, 0, err)
        listed = {entry["name"]: entry for entry in json.loads(out)}
        self.assertEqual(set(listed), set(names), "dlock list must scan every master")
        for name, holder in holders.items():
            self.assertEqual(listed[name]["holders"][0]["pid"], holder.pid)


if __name__ == "__main__":
    unittest.main()
