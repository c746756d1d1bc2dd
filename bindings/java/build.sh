#!/usr/bin/env bash
# Builds the Java binding from a clean clone: CMake makes libdlock_jni.so and the
# SWIG-generated sources, then Maven compiles, tests and packages the jar.
#   bindings/java/build.sh [BUILD_DIR] [MAVEN_GOALS...]   (defaults: build-java, verify)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build-java}")"
shift || true
goals=("${@:-verify}")

cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DDLOCK_BUILD_JAVA=ON \
  -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_CLI=OFF
cmake --build "$build_dir" --target dlock_jni -j "${DLOCK_JOBS:-2}"
mvn -B -f "$root/bindings/java/pom.xml" -Ddlock.build.dir="$build_dir/bindings/java" "${goals[@]}"
