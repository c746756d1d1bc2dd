#!/usr/bin/env bash
# The toolchain every glibc 2.28 artefact is built with (the manylinux_2_28
# wheels, the jar's natives, the .rpm and the aarch64 packages): Zig (PyPI's
# ziglang) targeting ARCH-linux-gnu.2.28, with OpenSSL and hiredis built for that
# target as static archives, once per machine, and the ZooKeeper C client too.
#   scripts/release-toolchain.sh ARCH BUILD_ROOT      (ARCH: x86_64 or aarch64)
# leaves in BUILD_ROOT:
#   tools/            a venv with ziglang, build, wheel, auditwheel, scikit-build-core, pybind11
#   bin/zig-cc, zig-c++, zig-ar, zig-ranlib   the compilers for the target
#   deps -> the target's OpenSSL, hiredis and ZooKeeper client prefix
#           (DLOCK_DEPS_PREFIX, default /opt/dlock-deps, under
#           zig-ARCH-linux-gnu.2.28: a fresh clone, as CI's, reuses them)
# OpenSSL's and hiredis's sources are Debian's source packages pinned in
# scripts/sources.lock (scripts/fetch-source.sh, cached in DEPS/src); a prefix
# records which pin it was built from, and a new pin rebuilds it. OpenSSL's
# OPENSSLDIR is /etc/ssl, where Debian, Ubuntu and SUSE keep the CA
# certificates; SSL_CERT_FILE / SSL_CERT_DIR or tls_ca point it elsewhere
# (e.g. /etc/pki/tls/cert.pem on RHEL).
# Building OpenSSL takes 6 to 10 minutes on two cores, hiredis under one, the
# ZooKeeper client (scripts/deps-zookeeper.sh, which keeps its own stamp) one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -eq 2 ]] || { echo "usage: scripts/release-toolchain.sh ARCH BUILD_ROOT" >&2; exit 64; }
arch=$1
build_root="$(realpath -m "$2")"
case "$arch" in x86_64 | aarch64) ;; *) echo "unsupported ARCH: $arch" >&2; exit 64 ;; esac
target="$arch-linux-gnu.2.28"
jobs=${DLOCK_JOBS:-2}
mkdir -p "$build_root"

# The compilers CMake and OpenSSL's Configure call: zig, for the target glibc.
# shellcheck source=zig-compilers.sh
. "$root/scripts/zig-compilers.sh"
bin="$build_root/bin"
zig_compilers "$build_root/tools" "$bin" "$target"

deps="${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}"
prefix="$deps/zig-$target"
[[ -L "$build_root/deps" ]] || rm -rf "$build_root/deps"
mkdir -p "$prefix"
ln -sfn "$prefix" "$build_root/deps"
# built NAME: whether the prefix holds NAME built from the source pinned now.
pin_of() { grep -E "^$1[[:space:]]" "$root/scripts/sources.lock"; }
built() { [[ "$(cat "$prefix/.dlock-$1" 2>/dev/null)" == "$(pin_of "$1")" ]]; }

if ! built openssl; then
  tarball=$("$root/scripts/fetch-source.sh" openssl "$deps/src")
  rm -rf "$build_root/openssl"
  mkdir -p "$build_root/openssl"
  tar -xzf "$tarball" -C "$build_root/openssl" --strip-components=1
  echo "Building OpenSSL (static, $target)"
  (cd "$build_root/openssl" &&
    CC="$bin/zig-cc" AR="$bin/zig-ar" RANLIB="$bin/zig-ranlib" ./Configure "linux-$arch" \
      no-shared no-tests no-docs no-apps no-asm no-module -fPIC --prefix="$prefix" --libdir=lib \
      --openssldir=/etc/ssl >"$build_root/openssl.log" 2>&1 &&
    make -j "$jobs" build_libs >>"$build_root/openssl.log" 2>&1 && make install_dev >>"$build_root/openssl.log" 2>&1) ||
    { tail -n 30 "$build_root/openssl.log" >&2; echo "OpenSSL's build failed (log: $build_root/openssl.log)" >&2; exit 1; }
  pin_of openssl >"$prefix/.dlock-openssl"
  rm -f "$prefix/.dlock-hiredis"
fi

if ! built hiredis; then
  tarball=$("$root/scripts/fetch-source.sh" hiredis "$deps/src")
  rm -rf "$build_root/hiredis"
  mkdir -p "$build_root/hiredis"
  tar -xzf "$tarball" -C "$build_root/hiredis" --strip-components=1
  echo "Building hiredis (static, TLS, $target)"
  cmake -S "$build_root/hiredis" -B "$build_root/hiredis/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$bin/zig-cc" -DCMAKE_AR="$bin/zig-ar" -DCMAKE_RANLIB="$bin/zig-ranlib" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DENABLE_SSL=ON -DDISABLE_TESTS=ON \
    -DOPENSSL_ROOT_DIR="$prefix" -DOPENSSL_USE_STATIC_LIBS=ON >/dev/null
  cmake --build "$build_root/hiredis/build" -j "$jobs" >/dev/null
  cmake --install "$build_root/hiredis/build" >/dev/null
  pin_of hiredis >"$prefix/.dlock-hiredis"
fi

"$root/scripts/deps-zookeeper.sh" "$prefix" "$bin"
