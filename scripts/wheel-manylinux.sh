#!/usr/bin/env bash
# Builds manylinux_2_28 wheels (glibc 2.28, as RHEL 8 / Debian 10 have) on a
# machine whose own glibc is newer (Debian 12: 2.36), for x86_64 or aarch64 and
# for several CPythons, by compiling everything with Zig targeting glibc 2.28
# (scripts/release-toolchain.sh: OpenSSL and hiredis as static archives; the
# extension links libc++ statically). auditwheel then checks each wheel against
# the policy and names it.
#   scripts/wheel-manylinux.sh OUT [BUILD_ROOT]   (BUILD_ROOT default build/manylinux)
#   DLOCK_ARCH      x86_64 or aarch64 (default: this machine's)
#   DLOCK_PYTHONS   the CPython versions, e.g. "3.9 3.10 3.11 3.12 3.13" (default: python3's)
# pybind11 has no limited-API (abi3) build, so each CPython gets its own wheel.
# The build frontend (scikit-build-core) runs on this machine's Python; the
# CPython the wheel is for is only asked for its version, ABI and headers
# (scripts/release-lib.sh's target_python: pyenv's, or Debian's, under qemu for
# aarch64), and the wheel is then tagged for it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/wheel-manylinux.sh OUT [BUILD_ROOT]" >&2; exit 64; }
out="$(realpath -m "$1")"
build_root="$(realpath -m "${2:-$root/build/manylinux}")"
arch=${DLOCK_ARCH:-$(uname -m)}
pythons=${DLOCK_PYTHONS:-$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')}
mkdir -p "$out" "$build_root"
# Without the SQL backends, whose client libraries no wheel carries (docs/sql.md, cmake/DlockSql.cmake).
export DLOCK_WITH_POSTGRESQL="${DLOCK_WITH_POSTGRESQL:-OFF}" DLOCK_WITH_MYSQL="${DLOCK_WITH_MYSQL:-OFF}"
# shellcheck source=release-lib.sh
. "$root/scripts/release-lib.sh"

"$root/scripts/release-toolchain.sh" "$arch" "$build_root"
tools="$build_root/tools"
bin="$build_root/bin"
prefix="$build_root/deps"

for version in $pythons; do
  tag="cp${version/./}"
  echo "Building the $tag wheel ($arch-linux-gnu.2.28)"
  target_python "$arch" "$version" "$build_root/python-$version"
  rm -rf "$build_root/wheel"
  # No build isolation: the tools venv has the build requirements. No Python
  # hints from the frontend's own interpreter: the target's are given instead.
  _PYTHON_HOST_PLATFORM="linux-$arch" "$tools/bin/python" -m build --wheel --no-isolation \
    --outdir "$build_root/wheel" "$root" \
    -C cmake.python-hints=false -C cmake.define.Python_EXECUTABLE="$python" \
    -C cmake.define.Python_INCLUDE_DIR="$python_include" \
    -C cmake.define.CMAKE_C_COMPILER="$bin/zig-cc" -C cmake.define.CMAKE_CXX_COMPILER="$bin/zig-c++" \
    -C cmake.define.CMAKE_AR="$bin/zig-ar" -C cmake.define.CMAKE_RANLIB="$bin/zig-ranlib" \
    -C cmake.define.DLOCK_DEPS_PREFIX="$prefix" -C cmake.define.OPENSSL_ROOT_DIR="$prefix" \
    -C cmake.define.OPENSSL_USE_STATIC_LIBS=ON -C cmake.define.CMAKE_SHARED_LINKER_FLAGS=-s \
    -C build-dir="$build_root/py-$tag" >"$build_root/py-$tag.log" 2>&1 ||
    { tail -n 40 "$build_root/py-$tag.log" >&2; exit 1; }
  wheel=$(ls "$build_root/wheel"/*.whl)
  # The frontend's interpreter named the wheel; the extension inside is the target's.
  ls "$build_root/py-$tag"/bindings/python/_dlock.cpython-"${version/./}"-"$arch"-linux-gnu.so >/dev/null
  "$tools/bin/wheel" tags --remove --python-tag "$tag" --abi-tag "$tag" "$wheel" >/dev/null
  # auditwheel's --plat choices are this machine's architecture's: auto takes
  # the best tag the wheel's symbols allow, which must be manylinux_2_28.
  PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --plat auto -w "$build_root/repaired" \
    "$build_root/wheel"/*.whl >/dev/null 2>&1
  repaired="$build_root/repaired/dlock_redis-$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' "$root/include/dlock.h")-$tag-$tag-manylinux_2_28_$arch.whl"
  [[ -f "$repaired" ]] || { echo "auditwheel did not give manylinux_2_28_$arch:" >&2; ls "$build_root/repaired" >&2; exit 1; }
  mv "$repaired" "$out/"
  rm -rf "$build_root/repaired"
done
