#!/usr/bin/env bash
# Builds the ZooKeeper C client (multi-threaded: THREADED, the sync API on; no
# cppunit, no SASL, no OpenSSL) as static, position-independent archives into
# PREFIX/zookeeper/{include/zookeeper,lib}, for the zookeeper:// backend
# (docs/design/backends.md 2.7). The source is Debian trixie's zookeeper source
# package, pinned in scripts/sources.lock and fetched by scripts/fetch-source.sh;
# it is cached in PREFIX/src so a rerun needs no network, and a finished build is
# not redone. Debian 12's libzookeeper-mt-dev under /usr is not used.
#
# The C client needs generated/zookeeper.jute.{c,h}, which neither the upstream
# tarball nor Debian's packaging carries (Debian's Maven build makes them). They
# are made here from the pinned tarball alone: JavaCC (Debian's javacc) turns the
# tarball's rcc.jj into the jute compiler's parser, javac compiles it with the
# tarball's org.apache.jute.compiler sources, and that compiler (Rcc) writes the
# C files from the tarball's zookeeper.jute, as upstream's zookeeper-jute/pom.xml
# does. The output is the same, byte for byte, as that of Maven Central's
# zookeeper-jute jar of the same version; it is never kept in git.
#
# Needs a JDK (javac) and javacc: scripts/deps.sh all installs them.
# Usage: scripts/deps-zookeeper.sh [PREFIX [COMPILERS]]
#   PREFIX      default $DLOCK_DEPS_PREFIX or /opt/dlock-deps
#   COMPILERS   a directory with zig-cc, zig-c++, zig-ar and zig-ranlib
#               (scripts/release-toolchain.sh's bin): the client is built with
#               them, for their target, instead of with the system compiler
set -euo pipefail

# The Debian version pinned; the stamp names it, so a new pin builds anew.
version=$(awk '$1 == "zookeeper" { print $2 }' "$(dirname "$0")/sources.lock")
prefix="${1:-${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}}"
compilers=()
if [[ -n "${2:-}" ]]; then
  compilers=(-DCMAKE_C_COMPILER="$2/zig-cc" -DCMAKE_CXX_COMPILER="$2/zig-c++"
    -DCMAKE_AR="$2/zig-ar" -DCMAKE_RANLIB="$2/zig-ranlib")
fi
install_dir="$prefix/zookeeper"
stamp="$install_dir/.dlock-zookeeper-$version-mt-static"
[[ -f "$stamp" ]] && exit 0

for tool in java javac javacc cmake ninja; do
  command -v "$tool" >/dev/null ||
    { echo "deps-zookeeper.sh: $tool not found: run scripts/deps.sh all" >&2; exit 1; }
done

tarball=$("$(dirname "$0")/fetch-source.sh" zookeeper "$prefix/src")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
tar -xzf "$tarball" -C "$work/src" --strip-components=1 --wildcards \
  '*/zookeeper-jute/src/main/*' '*/zookeeper-client/zookeeper-client-c/*'
jute="$work/src/zookeeper-jute/src/main"
client="$work/src/zookeeper-client/zookeeper-client-c"
echo "Building the ZooKeeper C client $version (static, multi-threaded) into $install_dir"

# The jute compiler, as zookeeper-jute/pom.xml builds it (javacc: lookAhead 2, not static).
parser="$work/rcc/src/org/apache/jute/compiler/generated"
mkdir -p "$parser"
javacc -LOOKAHEAD=2 -STATIC=false -OUTPUT_DIRECTORY="$parser" \
  "$jute/java/org/apache/jute/compiler/generated/rcc.jj" >"$work/javacc.log" 2>&1 ||
  { cat "$work/javacc.log" >&2; exit 1; }
javac -nowarn -encoding UTF-8 -d "$work/rcc/classes" \
  "$parser"/*.java "$jute"/java/org/apache/jute/compiler/*.java
mkdir -p "$client/generated"
(cd "$client/generated" &&
  java -cp "$work/rcc/classes" org.apache.jute.compiler.generated.Rcc -l c "$jute/resources/zookeeper.jute" >/dev/null)

# The client's own CMake build (static and -fPIC already); only the two
# libraries, not its cli and load_gen programs. SOCK_CLOEXEC: a program a lock
# holder runs must not inherit the session's socket.
cmake -S "$client" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DWANT_SYNCAPI=ON -DWANT_CPPUNIT=OFF \
  -DWITH_CYRUS_SASL=OFF -DWITH_OPENSSL=OFF -DWANT_SOCK_CLOEXEC=ON "${compilers[@]}" >/dev/null
cmake --build "$work/build" --target zookeeper hashtable -j "${DLOCK_JOBS:-2}" >/dev/null

# That build has no install rules: the layout of Debian's libzookeeper-mt-dev
# (<zookeeper/zookeeper.h>, libzookeeper_mt.a) plus the hashtable archive it needs.
rm -rf "$install_dir"
mkdir -p "$install_dir/include/zookeeper" "$install_dir/lib"
cp "$client"/include/{zookeeper.h,zookeeper_version.h,zookeeper_log.h,proto.h,recordio.h} \
  "$client/generated/zookeeper.jute.h" "$install_dir/include/zookeeper/"
cp "$work/build/libzookeeper.a" "$install_dir/lib/libzookeeper_mt.a"
cp "$work/build/libhashtable.a" "$install_dir/lib/libhashtable.a"
touch "$stamp"
