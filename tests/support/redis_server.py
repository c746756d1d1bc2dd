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
import ssl
import subprocess
import tempfile
import time
from typing import Callable
from dataclasses import dataclass

_STARTUP_SECONDS = 10.0
_PORT_ATTEMPTS = 5


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _executable() -> str:
    return os.environ.get("DLOCK_TEST_REDIS_SERVER") or "redis-server"


@dataclass(frozen=True)
class ServerTls:
    """PEM files for a TLS-only server (no client certificates asked for)."""

    cert: str
    key: str
    ca: str


class RedisServer:
    """Started by start() or `with`, stopped (and its directory removed) by stop().
    With `tls`, it listens on a TLS port only and url is rediss://."""

    def __init__(self, *extra_args: str, tls: ServerTls | None = None) -> None:
        """``extra_args``: more redis-server options, e.g. ``"--requirepass", "pw"``."""
        self._directory = tempfile.mkdtemp(prefix="dlock-redis-")
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._extra_args = extra_args
        self._tls = tls

    @property
    def url(self) -> str:
        return f"{'rediss' if self._tls else 'redis'}://127.0.0.1:{self.port}"

    def _listen_arguments(self) -> list[str]:
        if self._tls is None:
            return ["--port", str(self.port)]
        return ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", self._tls.cert,
                "--tls-key-file", self._tls.key, "--tls-ca-cert-file", self._tls.ca,
                "--tls-auth-clients", "no"]

    def _probe(self) -> socket.socket:
        conn = socket.create_connection(("127.0.0.1", self.port), timeout=1)
        if self._tls is None:
            return conn
        context = ssl.create_default_context(cafile=self._tls.ca)
        return context.wrap_socket(conn, server_hostname="127.0.0.1")

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
            [_executable(), *self._listen_arguments(), "--bind", "127.0.0.1",
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
                with self._probe() as conn:
                    conn.sendall(b"PING\r\n")
                    # A server with requirepass answers, refusing: it is up all the same.
                    if conn.recv(16).startswith((b"+PONG", b"-NOAUTH")):
                        return True
            except OSError:
                time.sleep(0.02)
        return False

    def cli(self, *args: str) -> str:
        """One command through redis-cli; its reply as text, stripped."""
        tls = ["--tls", "--cacert", self._tls.ca] if self._tls else []
        return subprocess.run(["redis-cli", *tls, "-p", str(self.port), *args], check=True,
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


class SentinelSet:
    """One master, two replicas and three sentinels (``redis-server --sentinel``) on free
    loopback ports, monitoring the master as ``m`` with quorum 2, down-after 1000 ms and
    failover-timeout 5000 ms. ``url`` is the redis-sentinel:// URL; ``failover()`` runs
    SENTINEL FAILOVER and waits for the new master."""

    MASTER_NAME = "m"

    def __init__(self) -> None:
        self.master = RedisServer()
        self.replicas: list[RedisServer] = []
        self.sentinel_ports: list[int] = []
        self._sentinels: list[subprocess.Popen[bytes]] = []
        self._directory = tempfile.mkdtemp(prefix="dlock-sentinel-")

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis-sentinel://{hosts}#{self.MASTER_NAME}"

    def nodes(self) -> list[RedisServer]:
        return [self.master, *self.replicas]

    def start(self) -> SentinelSet:
        self.master.start()
        for _ in range(2):
            replica = RedisServer("--replicaof", "127.0.0.1", str(self.master.port))
            self.replicas.append(replica.start())
        for index in range(3):
            port = _free_port()
            config = os.path.join(self._directory, f"sentinel{index}.conf")
            with open(config, "w", encoding="utf-8") as file:
                file.write(
                    f"port {port}\nbind 127.0.0.1\ndir {self._directory}\n"
                    "sentinel announce-ip 127.0.0.1\n"
                    f"sentinel monitor {self.MASTER_NAME} 127.0.0.1 {self.master.port} 2\n"
                    f"sentinel down-after-milliseconds {self.MASTER_NAME} 1000\n"
                    f"sentinel failover-timeout {self.MASTER_NAME} 5000\n"
                )
            self._sentinels.append(subprocess.Popen(
                [_executable(), config, "--sentinel"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            self.sentinel_ports.append(port)
        self._wait(lambda: all(self._sentinel_cli(i, "PING") == "PONG" for i in range(3)))
        self._wait(self._healthy)
        return self

    def _sentinel_cli(self, index: int, *args: str) -> str:
        return subprocess.run(
            ["redis-cli", "-p", str(self.sentinel_ports[index]), *args],
            capture_output=True, text=True, check=False).stdout.strip()

    def master_port(self) -> int:
        reply = self._sentinel_cli(0, "SENTINEL", "get-master-addr-by-name", self.MASTER_NAME)
        return int(reply.split()[-1])

    def node(self, port: int) -> RedisServer:
        return next(node for node in self.nodes() if node.port == port)

    def _healthy(self) -> bool:
        try:
            port = self.master_port()
            info = self.node(port).cli("INFO", "replication")
        except (ValueError, IndexError, StopIteration, subprocess.CalledProcessError):
            return False
        return info.count("state=online") == 2

    @staticmethod
    def _wait(condition: Callable[[], bool], seconds: float = 20.0) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError("the sentinel set did not get ready in time")
            time.sleep(0.05)

    def failover(self) -> int:
        """SENTINEL FAILOVER (retried while refused); returns the new master's port."""
        old = self.master_port()
        self._wait(lambda: self._sentinel_cli(
            0, "SENTINEL", "FAILOVER", self.MASTER_NAME) == "OK")
        self._wait(lambda: self.master_port() != old
                   and self.node(self.master_port()).cli("ROLE").startswith("master"))
        return self.master_port()

    def stop(self) -> None:
        for sentinel in self._sentinels:
            sentinel.kill()
            sentinel.wait()
        for node in self.nodes():
            node.stop()
        shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self) -> SentinelSet:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
