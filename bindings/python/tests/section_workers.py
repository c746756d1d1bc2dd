"""Worker processes, each with its own client, taking locks in turn and reporting every
critical section, for the checker (checker.py) to judge."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import defaultdict
from typing import Sequence

from checker import Section

# argv: URL CYCLES NAME...; each cycle holds every name once, in order, for about 1 ms.
_WORKER = textwrap.dedent(
    """
    import json, os, sys, time
    import dlock

    with dlock.Client(sys.argv[1]) as client:
        locks = [client.lock(name) for name in sys.argv[3:]]
        for _ in range(int(sys.argv[2])):
            for lock in locks:
                with lock:
                    start = time.monotonic()
                    time.sleep(0.001)
                    print(json.dumps([lock.name, lock.fencing_token, os.getpid(), start,
                                      time.monotonic()]))
    """
)


def run_section_workers(urls: Sequence[str], names: Sequence[str],
                        cycles: int) -> dict[str, list[Section]]:
    """One worker process per URL, all running at once; their sections by lock name."""
    workers = [
        subprocess.Popen([sys.executable, "-c", _WORKER, url, str(cycles), *names],
                         stdout=subprocess.PIPE, text=True)
        for url in urls
    ]
    sections: dict[str, list[Section]] = defaultdict(list)
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0
        for line in output.splitlines():
            name, token, pid, start, end = json.loads(line)
            sections[name].append(Section(token, str(pid), start, end))
    return sections
