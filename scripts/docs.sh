#!/usr/bin/env bash
# Builds the API references into OUT (default build/docs), failing on any warning:
#   OUT/python/  Sphinx autodoc of the installed `dlock` package (docs/api/python)
#   OUT/java/    javadoc of the Java binding (the jar's -javadoc.jar, unpacked)
# and checks that docs/figures/timeline.svg is what its script writes.
# Needs build/venv with the package installed (scripts/test.sh makes it) and the
# Java native part built (bindings/java/build.sh); installs Sphinx from PyPI.
# Usage: scripts/docs.sh [OUT]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(realpath -m "${1:-$root/build/docs}")"
venv="${DLOCK_VENV:-$root/build/venv}"
java_build="${DLOCK_JAVA_BUILD:-$root/build/java}"
cd "$root"

echo "== the timeline picture is generated from its source"
python3 docs/figures/timeline.py | cmp - docs/figures/timeline.svg ||
  { echo "docs/figures/timeline.svg is stale: python3 docs/figures/timeline.py > docs/figures/timeline.svg" >&2; exit 1; }

echo "== Python API reference (Sphinx, warnings are errors)"
"$venv/bin/pip" install -q sphinx
rm -rf "$out/python"
# Run from outside the tree, so that autodoc documents the installed package.
(cd / && "$venv/bin/python" -m sphinx -W --keep-going -q -b html "$root/docs/api/python" "$out/python")

echo "== Java API reference (javadoc, doclint all, warnings are errors)"
version=$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' include/dlock.h)
# The SWIG-generated sources must match the tree (incremental when they do).
bindings/java/build.sh "$java_build" -q -DskipTests compile >/dev/null
mvn -B -q -f bindings/java/pom.xml -Drevision="$version" \
  -Ddlock.build.dir="$java_build/bindings/java" -DskipTests \
  -Dmaven.javadoc.failOnWarnings=true javadoc:javadoc
rm -rf "$out/java"
mkdir -p "$out"
cp -r bindings/java/target/reports/apidocs "$out/java"
echo "API references in $out/python/index.html and $out/java/index.html"
