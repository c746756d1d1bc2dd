"""A grant that waited, so that a client's wait percentiles are not zero."""

from __future__ import annotations

import threading
import time

import dlock


def grant_after_a_wait(client: dlock.Client, holder: dlock.Client, name: str) -> None:
    """``client`` waits for ``name`` while ``holder`` keeps it a moment, then gets it."""
    held = holder.lock(name)
    held.acquire()

    def wait_for_it() -> None:
        with client.lock(name):
            pass

    waiter = threading.Thread(target=wait_for_it)
    waiter.start()
    time.sleep(0.05)
    held.release()
    waiter.join()
    assert client.stats()["wait_max_us"] > 0
