#!/usr/bin/env bash
# Runs every test suite against redis-server processes the tests start
# themselves: C++ core, command and packaging (CTest), Python binding
# (pytest), the docs' code blocks, Java binding (JUnit through Maven), and the
# election's observers in the three languages side by side. Installs what is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh all
jobs=${DLOCK_JOBS:-2}

echo "== C++: core, dlock command, install and ABI checks (CTest)"
# Curator from Maven Central, for the ZooKeeper lock's interop case (ZkMutex.curator).
tests/interop/curator/fetch-curator.sh build/curator
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLOCK_BUILD_TESTS=ON \
  -DDLOCK_TEST_CURATOR_CLASSPATH="$PWD/build/curator/*" >/dev/null
cmake --build build/test -j "$jobs"
ctest --test-dir build/test -j "$jobs" --output-on-failure

echo "== Python binding (pytest)"
python3 -m venv build/venv
build/venv/bin/pip install -q --upgrade pip
build/venv/bin/pip install -q ".[test]"
build/venv/bin/python -m pytest -q bindings/python/tests

echo "== Documentation: the Python, C and shell blocks of README.md and docs/*.md"
build/venv/bin/python tests/docs/run_doc_blocks.py --python build/venv/bin/python --build build/test

echo "== Java binding (JUnit)"
bindings/java/build.sh build/java verify

echo "== Election observers in C, Python and Java agree on the leaders (tests/interop)"
version=$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' include/dlock.h)
build/venv/bin/python tests/interop/election_observers.py --dlock build/test/cli/dlock \
  --python build/venv/bin/python --jar "bindings/java/target/dlock-$version.jar"
