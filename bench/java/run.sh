#!/usr/bin/env bash
# Runs the Java benchmark against a redis-server of its own on a free loopback port.
#   bench/java/run.sh BUILD_DIR     (BUILD_DIR: where bindings/java/build.sh builds; default build-java)
# DLOCK_BENCH_MAIN picks another benchmark of the jar, e.g. io.dlock.bench.SemaphoreBenchmark.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="${1:-$root/build-java}"

"$root/bindings/java/build.sh" "$build_dir" install -DskipTests
mvn -B -q -f "$root/bench/java/pom.xml" package

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
data_dir="$(mktemp -d)"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$data_dir" \
  --daemonize no > "$data_dir/redis.log" 2>&1 &
redis_pid=$!
trap 'kill "$redis_pid"; wait "$redis_pid" 2>/dev/null; rm -rf "$data_dir"' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.05; done

java -cp "$root/bench/java/target/dlock-bench.jar" "${DLOCK_BENCH_MAIN:-io.dlock.bench.LockBenchmark}" \
  "redis://127.0.0.1:$port"
