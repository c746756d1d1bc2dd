#!/usr/bin/env bash
# Builds hiredis 1.x with TLS (hiredis_ssl) into a private prefix, because
# Debian 12 ships hiredis 0.14 without TLS. The source is Debian trixie's
# source package, pinned in scripts/sources.lock and fetched by
# scripts/fetch-source.sh (it builds on Debian 12 against libssl-dev); it is
# cached in the prefix so a rerun needs no network, and a finished build is not
# redone.
# The archives are static and position-independent: libdlock.so, the Python
# extension and the JNI library embed them, so nothing at run time needs the
# prefix. Debian's libhiredis-dev under /usr is left as it is.
# Usage: scripts/deps-hiredis.sh [PREFIX]   (default $DLOCK_DEPS_PREFIX or /opt/dlock-deps)
set -euo pipefail

# The Debian version pinned; the stamp names it, so a new pin builds anew.
version=$(awk '$1 == "hiredis" { print $2 }' "$(dirname "$0")/sources.lock")
prefix="${1:-${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}}"
stamp="$prefix/lib/cmake/hiredis/.dlock-hiredis-$version-ssl"
[[ -f "$stamp" ]] && exit 0

tarball=$("$(dirname "$0")/fetch-source.sh" hiredis "$prefix/src")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/hiredis"
tar -xzf "$tarball" -C "$work/hiredis" --strip-components=1
echo "Building hiredis $version with TLS into $prefix"
cmake -S "$work/hiredis" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DENABLE_SSL=ON -DDISABLE_TESTS=ON >/dev/null
cmake --build "$work/build" -j "${DLOCK_JOBS:-2}" >/dev/null
cmake --install "$work/build" >/dev/null
touch "$stamp"
