"""Guard a critical section: one process at a time, on any machine, runs the block.

Usage: python3 critical_section.py [redis://host:port]
"""
import sys

import dlock

url = sys.argv[1] if len(sys.argv) > 1 else "redis://127.0.0.1:6379"
with dlock.Client(url) as client:
    with client.lock("inventory") as lock:  # waits as long as it takes
        print(f"holding 'inventory' with fencing token {lock.fencing_token}")
        # ... the critical section ...
