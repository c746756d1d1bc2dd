"""The life of a throwaway server the Python tests start: one process, in a temporary
directory of its own. `with` starts it (the subclass's start()); stop() ends the process and
removes the directory, whatever start() got to."""

from __future__ import annotations

import shutil
import subprocess
from typing import TypeVar

Server = TypeVar("Server", bound="ServerProcess")


class ServerProcess:
    def __init__(self) -> None:
        self._dir = ""
        self._process: subprocess.Popen[bytes] | None = None

    def start(self: Server) -> Server:
        raise NotImplementedError

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        """Ends the server process (by default SIGKILL) and reaps it."""
        process.kill()
        process.wait()

    def stop(self) -> None:
        if self._process is not None:
            self._end(self._process)
            self._process = None
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = ""

    def __enter__(self: Server) -> Server:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
