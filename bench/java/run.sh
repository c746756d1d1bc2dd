#!/usr/bin/env bash
# Runs the Java benchmark against a redis-server of its own on a free loopback port.
#   bench/java/run.sh BUILD_DIR     (BUILD_DIR: where bindings/java/build.sh builds; default build-java)
# DLOCK_BENCH_MAIN picks another benchmark of the jar, e.g. io.dlock.bench.SemaphoreBenchmark.
# io.dlock.bench.ClusterBenchmark also gets a Redis Cluster of its own (3 masters, 3 replicas,
# made with redis-cli --cluster create), its URL first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="${1:-$root/build-java}"

"$root/bindings/java/build.sh" "$build_dir" install -DskipTests
mvn -B -q -f "$root/bench/java/pom.xml" package

main="${DLOCK_BENCH_MAIN:-io.dlock.bench.LockBenchmark}"
data_dir="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; rm -rf "$data_dir"' EXIT

# A free loopback port whose cluster bus port (+10000) is free too.
free_port() {
  python3 -c 'import socket
while True:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    if port + 10000 < 65536:
        b = socket.socket()
        try:
            b.bind(("127.0.0.1", port + 10000)); print(port); break
        except OSError:
            pass'
}

# Starts redis-server on port $1 with the extra arguments that follow.
start_server() {
  local port="$1"
  shift
  mkdir -p "$data_dir/$port"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$data_dir/$port" \
    --daemonize no "$@" > "$data_dir/$port/redis.log" 2>&1 &
  pids+=($!)
  until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.05; done
}

port="$(free_port)"
start_server "$port"
urls=("redis://127.0.0.1:$port")

if [[ "$main" == *ClusterBenchmark ]]; then
  nodes=()
  for _ in 1 2 3 4 5 6; do
    node="$(free_port)"
    start_server "$node" --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 1000
    nodes+=("127.0.0.1:$node")
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes > "$data_dir/create.log"
  for node in "${nodes[@]}"; do
    until redis-cli -p "${node#*:}" cluster info | grep -q 'cluster_state:ok'; do sleep 0.1; done
  done
  until redis-cli --cluster check "${nodes[0]}" | grep -q 'All nodes agree'; do sleep 0.1; done
  seeds="$(IFS=,; echo "${nodes[*]:0:3}")"
  urls=("redis://$seeds" "${urls[@]}")
fi

java -cp "$root/bench/java/target/dlock-bench.jar" "$main" "${urls[@]}"
