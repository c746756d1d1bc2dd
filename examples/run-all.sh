#!/bin/sh
# Builds and runs every example against a redis-server started on a free
# loopback port. Usage: examples/run-all.sh DLOCK_PREFIX DLOCK_JAR
set -eu
prefix=$(cd "$1" && pwd)
jar=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
examples=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >/dev/null &
redis_pid=$!
trap 'kill $redis_pid; rm -rf "$work"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
url="redis://127.0.0.1:$port"

cmake -S "$examples/c" -B "$work/c" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/c" >/dev/null
cd "$work"
for example in critical_section try_with_timeout hourly_job; do
  echo "== C $example" && "$work/c/$example" "$url" "$work/c.state"
  echo "== Python $example" && python3 "$examples/python/$example.py" "$url" "$work/py.state"
done
for example in CriticalSection TryWithTimeout HourlyJob; do
  echo "== Java $example" && java -cp "$jar" "$examples/java/$example.java" "$url" "$work/java.state"
done
