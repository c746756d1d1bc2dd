"""dlock run on postgresql://, against a real PostgreSQL server the test starts: what every backend
does (backend_runs); a second run on a held name waits for the first to end and is woken by the
release; dlock schema's statements, run by an administrator, let a user who may not create tables
lock."""
import os
import signal
import subprocess
import sys
import time
import unittest
from pathlib import Path

from backend_runs import BackendRuns
from dlock_case import DLOCK, wait_until
from sections import RECORDER, read_log

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from postgres_server import PostgresServer, bindir  # noqa: E402


@unittest.skipIf(bindir() is None, "no PostgreSQL server (Debian's postgresql-15)")
class PostgresRuns(BackendRuns, unittest.TestCase):
    @classmethod
    def start_server(cls):
        return PostgresServer().start()

    def run_section(self, name, log, seconds):
        return subprocess.Popen([DLOCK, "run", name, "--", sys.executable, RECORDER, log, str(seconds)],
                                env=self.env)

    def live_token(self, name):
        """The token of name's row while its lease runs, read by psql; None when it is free."""
        answer = self.server.try_query(
            f"SELECT token FROM dlock_locks WHERE name = convert_to('{name}', 'UTF8')"
            " AND lease_until > clock_timestamp()")
        return int(answer.stdout) if answer.returncode == 0 and answer.stdout.strip() else None

    def test_a_closed_port_names_the_postgresql_server(self):
        env = dict(self.env, DLOCK_URL="postgresql://app@127.0.0.1:1/app")
        answer = subprocess.run([DLOCK, "run", "job", "--", "true"], env=env, capture_output=True, text=True,
                                timeout=30)
        self.assertEqual(answer.returncode, 69, answer.stderr)
        self.assertIn("cannot connect to the postgresql server", answer.stderr)

    def test_a_second_run_waits_until_the_first_releases(self):
        log = os.path.join(self.work_dir, "sections")
        first = self.run_section("report", log, 1.5)
        self.addCleanup(first.kill)
        wait_until(lambda: self.live_token("report") is not None, timeout=10, what="the first run's row")
        held = self.live_token("report")
        second = self.run_section("report", log, 0.05)
        self.addCleanup(second.kill)
        self.assertEqual(first.wait(timeout=30), 0)
        self.assertEqual(second.wait(timeout=30), 0)
        (first_start, first_end, first_token), (second_start, _, second_token) = sorted(read_log(log))
        self.assertEqual(first_token, held)
        self.assertGreaterEqual(second_start, first_end, "the second run did not wait")
        self.assertLess(second_start - first_end, 1.0, "woken late (NOTIFY missed?)")
        self.assertGreater(second_token, first_token)
        self.assertIsNone(self.live_token("report"), "the row's lease outlived both runs")

    def test_in_session_mode_a_killed_holder_frees_the_lock_at_once(self):
        env = dict(self.env, DLOCK_URL=self.server.url + "?mode=session")
        started = os.path.join(self.work_dir, "started")
        holder = subprocess.Popen([DLOCK, "run", "nightly-session", "--", "sh", "-c",
                                   f'echo "$DLOCK_FENCING_TOKEN $$" > {started}; exec sleep 30'], env=env)
        self.addCleanup(holder.kill)
        wait_until(lambda: os.path.exists(started) and Path(started).read_text().strip(), 10, "the run's start")
        token, command_pid = (int(word) for word in Path(started).read_text().split())
        self.addCleanup(os.kill, command_pid, signal.SIGKILL)  # the command outlives its killed dlock
        refused = subprocess.run([DLOCK, "run", "-n", "nightly-session", "--", "true"], env=env,
                                 capture_output=True, text=True, timeout=30)
        self.assertEqual(refused.returncode, 75, refused.stderr)
        holder.kill()  # SIGKILL: no release; its connection's end frees the lock
        holder.wait(10)
        start = time.monotonic()
        second = subprocess.run([DLOCK, "run", "--wait", "10s", "nightly-session", "--", "sh", "-c",
                                 'echo "$DLOCK_FENCING_TOKEN"'], env=env, capture_output=True, text=True, timeout=30)
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertLess(time.monotonic() - start, 5, "waited as for a lease")
        self.assertGreater(int(second.stdout), token)

    def test_the_schema_it_prints_lets_a_user_without_create_lock(self):
        # PostgreSQL 15: only the owner creates in schema public.
        self.server.query("CREATE ROLE app LOGIN")
        # A table of its own: the other tests' runs created dlock_locks already.
        env = dict(self.env, DLOCK_URL=self.server.url.replace("postgres@", "app@", 1) + "?table=app_locks")
        refused = subprocess.run([DLOCK, "run", "job", "--", "true"], env=env, capture_output=True, text=True,
                                 timeout=30)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("CREATE TABLE IF NOT EXISTS app_locks", refused.stderr)  # the statements to run

        printed = subprocess.run([DLOCK, "schema"], env=env, capture_output=True, text=True, timeout=30)
        self.assertEqual((printed.returncode, printed.stderr), (0, ""))
        self.server.query(printed.stdout)
        self.server.query("GRANT SELECT, INSERT, UPDATE, DELETE ON app_locks TO app;"
                            " GRANT USAGE, SELECT, UPDATE ON SEQUENCE dlock_token_seq TO app")
        ran = subprocess.run([DLOCK, "run", "job", "--", "sh", "-c", 'echo "$DLOCK_FENCING_TOKEN"'], env=env,
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(ran.returncode, 0, ran.stderr)
        self.assertEqual(self.server.query("SELECT token FROM app_locks WHERE name = convert_to('job', 'UTF8')"),
                         ran.stdout.strip())


if __name__ == "__main__":
    unittest.main()
