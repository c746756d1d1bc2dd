"""A redis-server of a test's own that the test can freeze (SIGSTOP) and thaw (SIGCONT):
a stalled server keeps its connections open and answers nothing, as a hung one does."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import Iterator

import redis
from redis_server import RedisServer


class StallableRedis(RedisServer):
    def start(self) -> StallableRedis:
        super().start()
        info = self.cli("INFO", "server").splitlines()
        self._pid = next(int(line.split(":")[1]) for line in info if line.startswith("process_id:"))
        self.stalls = 0
        return self

    def __enter__(self) -> StallableRedis:
        return self.start()

    def stall(self) -> None:
        os.kill(self._pid, signal.SIGSTOP)
        self.stalls += 1

    def resume(self) -> None:
        os.kill(self._pid, signal.SIGCONT)

    @contextlib.contextmanager
    def stalled_for(self, seconds: float) -> Iterator[None]:
        """Stalls now and resumes after ``seconds`` (at the latest when the block ends)."""
        self.stall()
        thaw = threading.Timer(seconds, self.resume)
        thaw.start()
        try:
            yield
        finally:
            thaw.cancel()
            self.resume()

    @contextlib.contextmanager
    def stalling_repeatedly(self, every: float, for_: float) -> Iterator[None]:
        """Stalls for ``for_`` seconds every ``every`` seconds while the block runs."""
        done = threading.Event()

        def pulse() -> None:
            while not done.wait(every - for_):
                self.stall()
                done.wait(for_)
                self.resume()

        pulsing = threading.Thread(target=pulse, daemon=True)
        pulsing.start()
        try:
            yield
        finally:
            done.set()
            pulsing.join()
            self.resume()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True)

    def stop(self) -> None:
        if getattr(self, "_pid", None) is not None:
            self.resume()  # a stopped process would not see SIGTERM
        super().stop()
