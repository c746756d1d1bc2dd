"""A throwaway PostgreSQL server on a free loopback port.

What the Python binding's and the dlock command's tests start PostgreSQL with,
as tests/support/pg_server.cpp does for the C++ tests (the same settings):
Debian's postgresql-15, or the binaries in $DLOCK_TEST_PG_BINDIR. PostgreSQL
refuses to run as root, so as root initdb and postgres run as the system user
dlockpg (made when missing) through setpriv, which execs: the server is this
process's own child.
"""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
import tempfile
import time

from redis_server import _free_port
from server_process import ServerProcess

DEBIAN_BINDIR = "/usr/lib/postgresql/15/bin"
SYSTEM_USER = "dlockpg"
SUPERUSER = "postgres"
DATABASE = "postgres"
_STARTUP_SECONDS = 30.0


def bindir() -> str | None:
    """Where initdb, postgres and psql are, or None when there is no PostgreSQL server here."""
    found = os.environ.get("DLOCK_TEST_PG_BINDIR") or DEBIAN_BINDIR
    return found if os.access(os.path.join(found, "postgres"), os.X_OK) else None


def _as_system_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["setpriv", f"--reuid={SYSTEM_USER}", f"--regid={SYSTEM_USER}", "--clear-groups", *argv]


def _ensure_system_user() -> None:
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
                       check=False, capture_output=True)
        pwd.getpwnam(SYSTEM_USER)  # KeyError if it could not be made


class PostgresServer(ServerProcess):
    """Started by `with` (or start()), shut down at once and its directory removed by stop()."""

    def __init__(self) -> None:
        super().__init__()
        self.port = 0
        self._bin = ""

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> PostgresServer:
        found = bindir()
        if found is None:
            raise RuntimeError(f"no PostgreSQL server: {DEBIAN_BINDIR}/postgres (Debian's postgresql-15) is missing")
        self._bin = found
        self._dir = tempfile.mkdtemp(prefix="dlock-pg-")
        if os.geteuid() == 0:
            _ensure_system_user()
            user = pwd.getpwnam(SYSTEM_USER)
            os.chown(self._dir, user.pw_uid, user.pw_gid)
        data = os.path.join(self._dir, "data")
        made = subprocess.run(
            _as_system_user([os.path.join(found, "initdb"), "-D", data, "--auth=trust", "-U", SUPERUSER,
                             "-E", "UTF8", "--locale=C", "--no-sync"]),
            capture_output=True, text=True)
        if made.returncode != 0:
            self.stop()
            raise RuntimeError(f"initdb failed: {made.stdout}{made.stderr}")
        self.port = _free_port()
        log_path = os.path.join(self._dir, "postgres.log")
        with open(log_path, "wb") as log:
            # fsync off: the tests crash servers, never the machine.
            self._process = subprocess.Popen(
                _as_system_user([os.path.join(found, "postgres"), "-D", data, "-p", str(self.port),
                                 "-k", self._dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]),
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + _STARTUP_SECONDS
        while time.monotonic() < deadline and self._process.poll() is None:
            if self.try_query("SELECT 1").returncode == 0:
                return self
            time.sleep(0.1)
        with open(log_path, encoding="utf-8", errors="replace") as log:
            tail = log.read()[-2000:]
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start on 127.0.0.1:{self.port}:\n{tail}")

    def try_query(self, sql: str) -> subprocess.CompletedProcess[str]:
        """psql's run of `sql` (never the code under test)."""
        return subprocess.run(
            [os.path.join(self._bin, "psql"), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.port), "-U", SUPERUSER, "-d", DATABASE, "-c", sql],
            capture_output=True, text=True, timeout=30)

    def query(self, sql: str) -> str:
        """The answer to `sql`, rows one a line, columns split by |."""
        answer = self.try_query(sql)
        if answer.returncode != 0:
            raise RuntimeError(f"psql on port {self.port}: {sql}: {answer.stderr}")
        return answer.stdout.strip()

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        # SIGQUIT: PostgreSQL's immediate shutdown (pg_ctl -m immediate), which ends its backends too.
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            super()._end(process)
