"""Try to take a lock for at most two seconds; do something else when it stays taken.

Usage: python3 try_with_timeout.py [redis://host:port]
"""
import sys

import dlock

url = sys.argv[1] if len(sys.argv) > 1 else "redis://127.0.0.1:6379"
with dlock.Client(url) as client:
    lock = client.lock("cache-rebuild")
    if lock.acquire(timeout=2):
        try:
            print("rebuilding the cache")
        finally:
            lock.release()
    else:
        print("someone else is rebuilding the cache; using the old one")
