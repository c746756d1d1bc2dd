"""A throwaway redis-server on a free loopback port (never 6379), without persistence.

The one way every Python test and benchmark of the project starts Redis: the
binding tests, the dlock command's tests and bench/python import it from here.
The binary is $DLOCK_TEST_REDIS_SERVER when set (as for the C++ tests), else
redis-server from PATH.
"""

from __future__ import annotations

import os
import random
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


def cli_executable() -> str:
    """The server's own command-line client, its sibling: redis-server -> redis-cli,
    valkey-server -> valkey-cli (a cluster is created with the matching tool)."""
    server = shutil.which(_executable()) or _executable()
    directory, base = os.path.split(server)
    sibling = os.path.join(directory, base.replace("-server", "-cli"))
    return sibling if os.path.exists(sibling) else "redis-cli"


@dataclass(frozen=True)
class ServerTls:
    """PEM files for a TLS-only server (no client certificates asked for)."""

    cert: str
    key: str
    ca: str


class RedisServer:
    """Started by start() or `with`, stopped (and its directory removed) by stop().
    With `tls`, it listens on a TLS port only and url is rediss://."""

    def __init__(self, *extra_args: str, tls: ServerTls | None = None,
                 ports: Callable[[], int] = _free_port) -> None:
        """``extra_args``: more redis-server options, e.g. ``"--requirepass", "pw"``;
        ``ports`` picks a port to try (again when another process took it first)."""
        self._directory = tempfile.mkdtemp(prefix="dlock-redis-")
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._extra_args = extra_args
        self._tls = tls
        self._ports = ports

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
            self.port = self._ports()
            if self._launch():
                return self
            self.kill()
        self.stop()
        raise RuntimeError("redis-server did not start")

    def _launch(self) -> bool:
        self._process = subprocess.Popen(
            [_executable(), *self._listen_arguments(), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self._directory, *self._extra_args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return self._wait_until_ready()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash; restart() starts it again."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def restart(self) -> None:
        """Kills the server (SIGKILL, as a crash: without persistence every key is gone)
        and starts it again on the same port."""
        self.kill()
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
        return subprocess.run([cli_executable(), *tls, "-p", str(self.port), *args], check=True,
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
            [cli_executable(), "-p", str(self.sentinel_ports[index]), *args],
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


# Cluster nodes listen below 22000 so their bus ports (+10000) stay clear of the
# ephemeral range the kernel hands out for outgoing connections.
_CLUSTER_PORTS = range(12000, 22000)
_CLUSTER_BUS_OFFSET = 10000


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _cluster_port() -> int:
    """A loopback port P where P and its cluster bus port P + 10000 are both free."""
    while True:
        port = random.choice(_CLUSTER_PORTS)
        if _port_is_free(port) and _port_is_free(port + _CLUSTER_BUS_OFFSET):
            return port


@dataclass(frozen=True)
class ClusterNode:
    """One line of CLUSTER NODES: a node's port, role and the slots it serves."""

    port: int
    master: bool
    failed: bool
    slots: tuple[range, ...]

    @staticmethod
    def parse(line: str) -> ClusterNode:
        fields = line.split()
        flags = fields[2].split(",")
        slots = []
        for entry in fields[8:]:
            if entry.startswith("["):  # a slot being imported or migrated
                continue
            first, _, last = entry.partition("-")
            slots.append(range(int(first), int(last or first) + 1))
        return ClusterNode(port=int(fields[1].split("@")[0].rsplit(":", 1)[1]),
                           master="master" in flags,
                           failed="fail" in flags or "fail?" in flags,
                           slots=tuple(slots))


class ClusterSet:
    """A Redis Cluster of 3 masters and 3 replicas on loopback (``cluster-node-timeout
    1000``), made by ``<cli> --cluster create ... --cluster-replicas 1``. ``url`` names one
    seed node, as a user would; ``master_of(key)`` is the node serving a key now."""

    NODES = 6

    def __init__(self) -> None:
        self.nodes = [
            RedisServer("--cluster-enabled", "yes", "--cluster-node-timeout", "1000",
                        ports=_cluster_port)
            for _ in range(self.NODES)
        ]

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self) -> ClusterSet:
        try:
            for node in self.nodes:
                node.start()
            subprocess.run(
                [cli_executable(), "--cluster", "create",
                 *(f"127.0.0.1:{node.port}" for node in self.nodes),
                 "--cluster-replicas", "1", "--cluster-yes"],
                check=True, capture_output=True, text=True, timeout=60)
            self.wait_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def topology(self) -> list[ClusterNode]:
        """What a live node says of every node (CLUSTER NODES)."""
        for node in self.live_nodes():
            try:
                text = node.cli("CLUSTER", "NODES")
            except subprocess.CalledProcessError:
                continue
            return [ClusterNode.parse(line) for line in text.splitlines() if line.strip()]
        raise RuntimeError("no cluster node answers")

    def live_nodes(self) -> list[RedisServer]:
        return [node for node in self.nodes if node.running]

    def node(self, port: int) -> RedisServer:
        return next(node for node in self.nodes if node.port == port)

    def masters(self) -> list[RedisServer]:
        return [self.node(entry.port) for entry in self.topology()
                if entry.master and not entry.failed and entry.slots]

    def master_of(self, key: str) -> RedisServer:
        slot = int(self.live_nodes()[0].cli("CLUSTER", "KEYSLOT", key))
        for entry in self.topology():
            if entry.master and not entry.failed and any(slot in r for r in entry.slots):
                return self.node(entry.port)
        raise RuntimeError(f"no master serves slot {slot}")

    def kill_master_of(self, key: str, seconds: float = 15.0) -> tuple[RedisServer, RedisServer]:
        """SIGKILLs the master serving ``key`` and waits until a replica serves its slot:
        (the killed node, the promoted one). ``restart()`` on the killed node brings it
        back as a replica; ``wait_healthy()`` waits for that."""
        old = self.master_of(key)
        old.kill()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                promoted = self.master_of(key)
            except RuntimeError:  # the slot has no master until a replica is promoted
                promoted = old
            if promoted is not old:
                return old, promoted
            time.sleep(0.05)
        raise RuntimeError(f"no replica took over {key}'s slot in {seconds} s")

    def names_on_each_master(self, prefix: str) -> list[str]:
        """One name per master (``prefix-0``, ``prefix-1``, ...), in the masters' order."""
        found: dict[int, str] = {}
        masters = self.masters()
        index = 0
        while len(found) < len(masters):
            name = f"{prefix}-{index}"
            found.setdefault(self.master_of(name).port, name)
            index += 1
        return [found[master.port] for master in masters]

    def _healthy(self) -> bool:
        try:
            for node in self.live_nodes():
                if "cluster_state:ok" not in node.cli("CLUSTER", "INFO"):
                    return False
            masters = self.masters()
            return len(masters) == 3 and all(
                "state=online" in master.cli("INFO", "replication") for master in masters)
        except (subprocess.CalledProcessError, RuntimeError, StopIteration):
            return False

    def wait_healthy(self, seconds: float = 30.0) -> None:
        """Until every live node says cluster_state:ok and each of the 3 masters has an
        online replica."""
        deadline = time.monotonic() + seconds
        while not self._healthy():
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not get healthy in time")
            time.sleep(0.1)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> ClusterSet:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
