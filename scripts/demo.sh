#!/usr/bin/env bash
# The demonstration: builds dlock, starts a throwaway redis-server, and lets
# several processes contend for one lock around a slow counter update,
# printing each grant's fencing token and checking that the counter is exact.
# Usage: scripts/demo.sh [WORKERS [ROUNDS]]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh core
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLOCK_BUILD_TESTS=OFF \
  -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_CLI=OFF >/dev/null
cmake --build build/demo --target dlock_demo >/dev/null
source scripts/throwaway-redis.sh
echo "redis-server on $DLOCK_REDIS_URL"
build/demo/demo/dlock_demo "$DLOCK_REDIS_URL" "${1:-4}" "${2:-25}" "$redis_dir/counter"
