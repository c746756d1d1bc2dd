#!/usr/bin/env bash
# Runs the C++ suite again with valkey-server (8.x, from bookworm-backports) in
# place of redis-server, on the build scripts/test.sh made. Every test server is
# started as $DLOCK_TEST_REDIS_SERVER.
#
# Only the C++ suite: the Python and Java bindings reach the server through the
# same C ABI and the same core, so every command and script they send is sent by
# the C++ tests too; against Valkey they would repeat the core's checks for
# about 6.5 minutes of CI. They run against Redis in scripts/test.sh. The safety
# run's short mode (label `safety`) and the slow tests (label `slow`: failovers,
# faults, contention, RedLock's timings) ran once already, in scripts/test.sh;
# the ZooKeeper and SQL backends' tests (labels `zookeeper`, `sql`) start no
# Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
$sudo scripts/deps-valkey.sh
export DLOCK_TEST_REDIS_SERVER=valkey-server
jobs=${DLOCK_JOBS:-2}

echo "== C++ against Valkey (CTest, without the labels safety, slow, zookeeper and sql)"
ctest --test-dir build/test -j "$jobs" --output-on-failure -LE 'safety|slow|zookeeper|sql'
