#!/usr/bin/env bash
# Runs the C++, Python and Java suites again with valkey-server (8.x, from
# bookworm-backports) in place of redis-server, on the builds scripts/test.sh
# made. Every test server is started as $DLOCK_TEST_REDIS_SERVER.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo scripts/deps-valkey.sh
export DLOCK_TEST_REDIS_SERVER=valkey-server
jobs=${DLOCK_JOBS:-2}

echo "== C++ against Valkey (CTest; the safety run's short mode ran once already, in scripts/test.sh)"
ctest --test-dir build/test -j "$jobs" --output-on-failure -LE safety

echo "== Python binding against Valkey (pytest)"
build/venv/bin/python -m pytest -q bindings/python/tests

echo "== Java binding against Valkey (JUnit)"
bindings/java/build.sh build/java verify
