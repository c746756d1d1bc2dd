"""Test-side polling (the library itself never polls)."""

from __future__ import annotations

import time
from typing import Callable


def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Whether `condition` holds within `timeout` seconds, checked every 10 ms."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
