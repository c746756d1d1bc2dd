"""What an observe() iterator yielded, read on a thread of its own: what the election tests of
every backend wait on."""

from __future__ import annotations

import threading
from typing import Iterator

import dlock


class Collected:
    """Reads an observe() iterator on a thread of its own, so that a test can wait for a
    number of changes with a deadline."""

    def __init__(self, changes: Iterator[dlock.Leader]) -> None:
        self.leaders: list[dlock.Leader] = []
        self._changes = changes
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for leader in self._changes:
            with self._arrived:
                self.leaders.append(leader)
                self._arrived.notify_all()

    def wait_for(self, count: int, timeout: float = 10) -> list[dlock.Leader]:
        with self._arrived:
            assert self._arrived.wait_for(lambda: len(self.leaders) >= count, timeout), self.leaders
            return list(self.leaders)

    def ended(self, timeout: float = 5) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()
