"""A throwaway redis-server on a free loopback port (never 6379), without persistence.

The one way every Python test and benchmark of the project starts Redis: the
binding tests, the dlock command's tests and bench/python import it from here.
The binary is $DLOCK_TEST_REDIS_SERVER when set (as for the C++ tests), else
redis-server from PATH.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

_STARTUP_SECONDS = 10.0
_PORT_ATTEMPTS = 5


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _executable() -> str:
    return os.environ.get("DLOCK_TEST_REDIS_SERVER") or "redis-server"


class RedisServer:
    """Started by start() or `with`, stopped (and its directory removed) by stop()."""

    def __init__(self, *extra_args: str) -> None:
        """``extra_args``: more redis-server options, e.g. ``"--requirepass", "pw"``."""
        self._directory = tempfile.mkdtemp(prefix="dlock-redis-")
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._extra_args = extra_args

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> RedisServer:
        # Another process may take the free port before redis-server binds it.
        for _ in range(_PORT_ATTEMPTS):
            self.port = _free_port()
            if self._launch():
                return self
            self._kill()
        self.stop()
        raise RuntimeError("redis-server did not start")

    def _launch(self) -> bool:
        self._process = subprocess.Popen(
            [_executable(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self._directory, *self._extra_args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return self._wait_until_ready()

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def restart(self) -> None:
        """Kills the server (SIGKILL, as a crash: without persistence every key is gone)
        and starts it again on the same port."""
        self._kill()
        if not self._launch():
            raise RuntimeError(f"redis-server did not restart on port {self.port}")

    def _wait_until_ready(self) -> bool:
        assert self._process is not None
        deadline = time.monotonic() + _STARTUP_SECONDS
        while time.monotonic() < deadline and self._process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    # A server with requirepass answers, refusing: it is up all the same.
                    if conn.recv(16).startswith((b"+PONG", b"-NOAUTH")):
                        return True
            except OSError:
                time.sleep(0.02)
        return False

    def cli(self, *args: str) -> str:
        """One command through redis-cli; its reply as text, stripped."""
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], check=True,
                              capture_output=True, text=True).stdout.strip()

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=10)
            self._process = None
        shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
