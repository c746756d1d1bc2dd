#!/usr/bin/env bash
# Builds hiredis 1.2.0 with TLS (hiredis_ssl) into a private prefix, because
# Debian 12 ships hiredis 0.14 without TLS. The source is Debian trixie's
# source package (it builds on Debian 12 against libssl-dev); it is cached in
# the prefix so a rerun needs no network, and a finished build is not redone.
# The archives are static and position-independent: libdlock.so, the Python
# extension and the JNI library embed them, so nothing at run time needs the
# prefix. Debian's libhiredis-dev under /usr is left as it is.
# Usage: scripts/deps-hiredis.sh [PREFIX]   (default $DLOCK_DEPS_PREFIX or /opt/dlock-deps)
set -euo pipefail

version=1.2.0
prefix="${1:-${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}}"
stamp="$prefix/lib/cmake/hiredis/.dlock-hiredis-$version-ssl"
[[ -f "$stamp" ]] && exit 0

sources="$prefix/src"
tarball="$sources/hiredis_$version.orig.tar.gz"
mkdir -p "$sources"

if [[ ! -f "$tarball" ]]; then
  # Only the deb-src line for trixie is added, in its own file, and only that
  # file's index is fetched: no binary package comes from trixie.
  list=/etc/apt/sources.list.d/dlock-trixie-src.sources
  mirror=$(sed -n 's/^URIs:[[:space:]]*\(\S*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
  [[ -n "$mirror" ]] || mirror=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(\S*\/debian\)\/\?[[:space:]].*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n1)
  [[ -n "$mirror" ]] || mirror=http://deb.debian.org/debian
  printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" >"$list"
  echo "Fetching the hiredis source package from trixie ($mirror)"
  apt-get update -qq -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0
  (cd "$sources" && apt-get source -qq --download-only hiredis/trixie 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
  if [[ ! -f "$tarball" ]]; then
    echo "trixie's hiredis source is not $version: found $(ls "$sources")" >&2
    exit 1
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
echo "Building hiredis $version with TLS into $prefix"
cmake -S "$work/hiredis-$version" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DENABLE_SSL=ON -DDISABLE_TESTS=ON >/dev/null
cmake --build "$work/build" -j "${DLOCK_JOBS:-2}" >/dev/null
cmake --install "$work/build" >/dev/null
touch "$stamp"
