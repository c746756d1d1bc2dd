#!/usr/bin/env bash
# Sourced: starts a redis-server without persistence on a free loopback port
# in a temporary directory, sets DLOCK_REDIS_URL, and stops it on exit.
redis_dir=$(mktemp -d)
redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$redis_dir" \
  --daemonize yes --pidfile "$redis_dir/redis.pid" --logfile "$redis_dir/redis.log"
stop_throwaway_redis() {
  [[ -f "$redis_dir/redis.pid" ]] && kill "$(cat "$redis_dir/redis.pid")" 2>/dev/null
  rm -rf "$redis_dir"
}
trap stop_throwaway_redis EXIT
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done
export DLOCK_REDIS_URL="redis://127.0.0.1:$redis_port"
