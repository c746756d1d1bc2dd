"""A throwaway standalone ZooKeeper server on a free loopback port.

What the Python binding's and the dlock command's tests start ZooKeeper with,
as tests/support/zk_ensemble.cpp does for the C++ tests (one node, the same
settings): Debian's zookeeper package, or the classpath in
$DLOCK_TEST_ZOOKEEPER_CLASSPATH.

Run as a program (scripts/check-release.sh does), it starts one, prints its
URL on a line of its own, and stops it when terminated (SIGTERM, SIGINT) or
when its standard input closes.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from redis_server import _free_port
from server_process import ServerProcess

DEBIAN_JAR = "/usr/share/java/zookeeper.jar"
DEBIAN_LOGGER = "/usr/share/java/slf4j-simple.jar"
MAX_SESSION_TIMEOUT_MS = 4000
_STARTUP_SECONDS = 30.0


def classpath() -> str | None:
    """The server's classpath, or None when there is no ZooKeeper server here."""
    configured = os.environ.get("DLOCK_TEST_ZOOKEEPER_CLASSPATH")
    if configured:
        return configured
    if not os.access(DEBIAN_JAR, os.R_OK) or shutil.which("java") is None:
        return None
    return DEBIAN_JAR + (":" + DEBIAN_LOGGER if os.access(DEBIAN_LOGGER, os.R_OK) else "")


class ZooKeeperServer(ServerProcess):
    """Started by `with` (or start()), killed and its directory removed by stop()."""

    def __init__(self) -> None:
        super().__init__()
        self.port = 0

    @property
    def url(self) -> str:
        return f"zookeeper://127.0.0.1:{self.port}"

    def start(self) -> ZooKeeperServer:
        found = classpath()
        if found is None:
            raise RuntimeError(f"no ZooKeeper server: {DEBIAN_JAR} (Debian's zookeeper package) or java is missing")
        self._dir = tempfile.mkdtemp(prefix="dlock-zk-")
        self.port = _free_port()
        os.makedirs(os.path.join(self._dir, "data"))
        with open(os.path.join(self._dir, "zoo.cfg"), "w", encoding="utf-8") as config:
            config.write(
                f"tickTime=200\ninitLimit=10\nsyncLimit=5\ndataDir={self._dir}/data\n"
                f"clientPort={self.port}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n"
                f"4lw.commands.whitelist=*\nminSessionTimeout=400\n"
                f"maxSessionTimeout={MAX_SESSION_TIMEOUT_MS}\nforceSync=no\n")
        log = open(os.path.join(self._dir, "server.log"), "wb")
        self._process = subprocess.Popen(
            ["java", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
             "-Djava.net.preferIPv4Stack=true", "-Dznode.container.checkIntervalMs=1000", "-cp", found,
             "org.apache.zookeeper.server.quorum.QuorumPeerMain", os.path.join(self._dir, "zoo.cfg")],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + _STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                break
            if self.four_letter_word("ruok") == "imok":
                return self
            time.sleep(0.1)
        tail = open(os.path.join(self._dir, "server.log"), encoding="utf-8", errors="replace").read()[-2000:]
        self.stop()
        raise RuntimeError(f"ZooKeeper did not start on 127.0.0.1:{self.port}:\n{tail}")

    def four_letter_word(self, word: str) -> str:
        """The server's answer to `word` ("ruok", "srvr"), empty when it does not answer."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1.0) as connection:
                connection.sendall(word.encode())
                answer = b""
                while chunk := connection.recv(4096):
                    answer += chunk
                return answer.decode(errors="replace")
        except OSError:
            return ""


def _serve_until_told() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with ZooKeeperServer() as server:
        print(server.url, flush=True)
        try:
            sys.stdin.read()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    _serve_until_told()
