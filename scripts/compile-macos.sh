#!/usr/bin/env bash
# Compiles and links the core (libdlock.dylib) and the dlock command for macOS,
# aarch64 and x86_64, with Zig (scripts/release-tools.txt): CI's check that the
# core stays portable. Nothing is run or shipped, since no macOS machine can test
# it here (docs/platforms.md). hiredis is built from its pinned source
# (scripts/sources.lock) without TLS: OpenSSL for macOS is not built, and
# rediss:// is not what this checks. Nor are the SQL backends in it: libpq and
# MariaDB's client are not built for macOS (the ZooKeeper client neither: its
# prefix here has none).
# Usage: scripts/compile-macos.sh [BUILD_ROOT]   (default build/macos)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_root="$(realpath -m "${1:-$root/build/macos}")"
jobs=${DLOCK_JOBS:-2}
mkdir -p "$build_root"

# shellcheck source=zig-compilers.sh
. "$root/scripts/zig-compilers.sh"
hiredis_tarball=$("$root/scripts/fetch-source.sh" hiredis "${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}/src")

for target in aarch64-macos x86_64-macos; do
  echo "== $target: libdlock.dylib and dlock"
  dir="$build_root/$target"
  bin="$dir/bin"
  zig_compilers "$build_root/tools" "$bin" "$target"
  cross=(-G Ninja -DCMAKE_SYSTEM_NAME=Darwin -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER="$bin/zig-cc" -DCMAKE_AR="$bin/zig-ar" -DCMAKE_RANLIB="$bin/zig-ranlib")

  if [[ ! -f "$dir/deps/lib/libhiredis.a" ]]; then
    rm -rf "$dir/hiredis"
    mkdir -p "$dir/hiredis"
    tar -xzf "$hiredis_tarball" -C "$dir/hiredis" --strip-components=1
    cmake -S "$dir/hiredis" -B "$dir/hiredis/build" "${cross[@]}" -DCMAKE_INSTALL_PREFIX="$dir/deps" \
      -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF -DENABLE_SSL=OFF -DDISABLE_TESTS=ON >/dev/null
    cmake --build "$dir/hiredis/build" -j "$jobs" >/dev/null
    cmake --install "$dir/hiredis/build" >/dev/null
  fi

  cmake -S "$root" -B "$dir/dlock" "${cross[@]}" -DCMAKE_CXX_COMPILER="$bin/zig-c++" -DDLOCK_DEPS_PREFIX="$dir/deps" -DDLOCK_WITH_TLS=OFF \
    -DDLOCK_WITH_POSTGRESQL=OFF -DDLOCK_WITH_MYSQL=OFF -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_DEMO=OFF -DDLOCK_BUILD_CLI=ON >/dev/null
  cmake --build "$dir/dlock" -j "$jobs" --target dlock dlock_cli >"$dir/build.log" 2>&1 ||
    { grep -E 'error|FAILED' "$dir/build.log" | head -n 40 >&2; echo "$target: the build failed (log: $dir/build.log)" >&2; exit 1; }
  arch=${target%-macos}
  [[ "$arch" == aarch64 ]] && arch=arm64
  for artefact in "$dir/dlock/src/libdlock.dylib" "$dir/dlock/cli/dlock"; do
    description=$(file -L "$artefact")
    grep -q "Mach-O 64-bit.*$arch" <<<"$description" ||
      { echo "$artefact is not a Mach-O $arch file: $description" >&2; exit 1; }
    echo "${description#"$build_root/"}"
  done
done
