"""What `dlock run`, `status` and `list` do alike on every backend that is not Redis, against one
server the test class starts: concurrent runs on one name never overlap and their tokens rise,
judged by the same checker as on Redis; status and list show the holder of a lock a run holds,
and nothing once it is released. A test class mixes BackendRuns into unittest.TestCase and says
how to start its server and what differs."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from dlock_case import DLOCK, wait_until
from sections import contend, find_violations, read_log

RUNNERS = 4
RUNS_EACH = 5


class BackendRuns:
    # Set by the test class.
    CONTENDED_NAME = "jobs-report"  # a name the backend takes as is
    HOLDS_HAVE_LEASES = True  # False where a session keeps a hold (status shows no lease)
    KEEPS_HOLDER_NOTES = True  # False where status can show the holder's id only, not its host and pid

    @classmethod
    def start_server(cls):
        """The class's server: anything with url and stop()."""
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.server = cls.start_server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.env = dict(os.environ, DLOCK_URL=self.server.url)
        self.work_dir = tempfile.mkdtemp(prefix="dlock-cli-backend-")
        self.addCleanup(shutil.rmtree, self.work_dir, True)

    def dlock(self, *args):
        return subprocess.run([DLOCK, *args], env=self.env, capture_output=True, text=True, timeout=30)

    def test_concurrent_runs_never_overlap(self):
        log = os.path.join(self.work_dir, "sections")
        self.assertEqual(contend(DLOCK, self.env, self.CONTENDED_NAME, log, RUNNERS, RUNS_EACH), [0] * RUNNERS)
        sections = read_log(log)
        self.assertEqual(len(sections), RUNNERS * RUNS_EACH)
        self.assertEqual(find_violations(sections), [])

    def test_status_and_list_show_the_holder_of_a_run(self):
        started = os.path.join(self.work_dir, "started")
        run = subprocess.Popen([DLOCK, "run", "nightly", "--", "sh", "-c",
                                f'echo "$DLOCK_FENCING_TOKEN" > {started}; exec sleep 30'], env=self.env)
        self.addCleanup(run.kill)
        wait_until(lambda: os.path.exists(started) and Path(started).read_text().strip(), 10, "the run's start")
        token = int(Path(started).read_text())
        status = self.dlock("status", "--json", "nightly")
        self.assertEqual(status.returncode, 0, status.stderr)
        shown = json.loads(status.stdout)
        self.assertTrue(shown["locked"])
        self.assertEqual(len(shown["holders"]), 1)
        if self.KEEPS_HOLDER_NOTES:
            self.assertEqual(shown["holders"][0]["host"], socket.gethostname())
            self.assertEqual(shown["holders"][0]["pid"], run.pid)
        else:
            self.assertIsNone(shown["holders"][0]["host"])
        if self.HOLDS_HAVE_LEASES:
            self.assertGreater(shown["lease_remaining_ms"], 0, "the hold's lease, by the server's clock")
        else:
            self.assertIsNone(shown["lease_remaining_ms"], "a session's hold has no lease")
        self.assertEqual(shown["last_fencing_token"], token)
        listed = self.dlock("list", "--json", "night")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertEqual([lock["name"] for lock in json.loads(listed.stdout)], ["nightly"])
        run.terminate()
        run.wait(10)
        after = self.dlock("status", "nightly")
        self.assertEqual(after.returncode, 3, after.stdout + after.stderr)
        self.assertEqual(json.loads(self.dlock("list", "--json", "night").stdout), [])

    def test_elect_runs_the_command_while_leader_and_leader_shows_it(self):
        def elect(value):
            seen = os.path.join(self.work_dir, value)
            process = subprocess.Popen([DLOCK, "elect", "scheduler", "--value", value, "--", "sh", "-c",
                                        f'echo "$DLOCK_TERM" > {seen}.tmp && mv {seen}.tmp {seen}; exec sleep 30'],
                                       env=self.env)
            self.addCleanup(process.kill)
            return process, seen

        def leader():
            shown = self.dlock("leader", "--json", "scheduler")
            self.assertEqual(shown.returncode, 0, shown.stderr)
            return json.loads(shown.stdout)

        first, first_seen = elect("web1")
        wait_until(lambda: os.path.exists(first_seen), 10, "the first leader's command to start")
        first_term = int(Path(first_seen).read_text())
        self.assertEqual((leader()["value"], leader()["term"]), ("web1", first_term))
        second, second_seen = elect("web2")
        time.sleep(1)
        self.assertFalse(os.path.exists(second_seen), "a second leader ran its command")
        first.terminate()  # stops the command and resigns
        first.wait(10)
        wait_until(lambda: os.path.exists(second_seen), 10, "the second leader's command to start")
        second_term = int(Path(second_seen).read_text())
        self.assertGreater(second_term, first_term)
        self.assertEqual((leader()["value"], leader()["term"]), ("web2", second_term))
        second.terminate()
        second.wait(10)
        wait_until(lambda: self.dlock("leader", "scheduler").returncode == 3, 10, "no leader after the resign")
