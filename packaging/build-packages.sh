#!/bin/sh
# Builds the packages into OUT_DIR, each from its own configure because each
# wants its own layout:
#   .deb     Debian multiarch layout (libdir lib/<multiarch>)
#   .rpm     RPM layout (libdir lib64)
#   .tar.gz  one relocatable tree (libdir lib; bin/dlock finds it via $ORIGIN/../lib)
# hiredis is linked in. Built by the system compiler (Debian 12's GCC), they need
# glibc >= 2.34, libstdc++ of GCC >= 12 (GLIBCXX_3.4.30) and OpenSSL 3. (Linking
# libstdc++ statically would raise the glibc floor to 2.36: GCC 12's libstdc++.a
# calls arc4random and its libgcc_eh _dl_find_object, both newer than 2.34.)
#
# DLOCK_ZIG_ROOT=DIR (a scripts/release-toolchain.sh build root) builds the .rpm
# and the .tar.gz with its Zig for glibc 2.28 instead: OpenSSL, hiredis and libc++
# linked in, nothing needed but glibc 2.28 (RHEL 8 and newer). The .deb keeps
# Debian's compiler and libraries (its dependencies are Debian's packages).
# DLOCK_ARCH=aarch64 with such a root cross-builds them for aarch64 (.deb too,
# from the same Zig build; its Depends is then libc6 alone, which that build needs).
# Cross-built or not, a Zig build ships no libdlock.a: its objects need libc++,
# which a C program linked by the distribution's GCC does not bring.
# DLOCK_PACKAGE_CONTACT="Name <address>": the packages' maintainer (default in cpack.cmake).
# Usage: packaging/build-packages.sh OUT_DIR [BUILD_ROOT]
set -eu
out_dir=$(mkdir -p "$1" && cd "$1" && pwd)
build_root=${2:-"$out_dir/build"}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
# Reproducible dates (the changelog's), the same for every architecture's build.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$source_dir" log -1 --format=%ct 2>/dev/null || date +%s)
  export SOURCE_DATE_EPOCH
fi
launcher=""
command -v ccache >/dev/null && launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"

arch=${DLOCK_ARCH:-$(uname -m)}
zig_root=${DLOCK_ZIG_ROOT:-}
if [ "$arch" != "$(uname -m)" ] && [ -z "$zig_root" ]; then
  echo "build-packages.sh: DLOCK_ARCH=$arch needs DLOCK_ZIG_ROOT (scripts/release-toolchain.sh)" >&2
  exit 64
fi
[ -z "$zig_root" ] || zig_root=$(cd "$zig_root" && pwd)
# Without the SQL backends: the packages would need libpq and MariaDB's client (docs/sql.md,
# cmake/DlockSql.cmake reads these).
export DLOCK_WITH_POSTGRESQL="${DLOCK_WITH_POSTGRESQL:-OFF}" DLOCK_WITH_MYSQL="${DLOCK_WITH_MYSQL:-OFF}"

build() {  # build DIR CMAKE_ARGS...
  dir=$1
  shift
  # shellcheck disable=SC2086
  cmake -S "$source_dir" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_DEMO=OFF -DDLOCK_BUILD_CLI=ON \
    ${DLOCK_PACKAGE_CONTACT:+"-DDLOCK_PACKAGE_CONTACT=$DLOCK_PACKAGE_CONTACT"} $launcher "$@" >/dev/null
  cmake --build "$dir" -j "${DLOCK_JOBS:-2}"
  (cd "$dir" && cpack >/dev/null)
  cp "$dir"/*.deb "$dir"/*.rpm "$dir"/*.tar.gz "$out_dir" 2>/dev/null || true
}

# build_target DIR CMAKE_ARGS...: the system compiler's build, or with DLOCK_ZIG_ROOT
# Zig's for ARCH at glibc 2.28. Zig's links stripped (-s: the host's strip cannot
# read another architecture's files) and makes a position-independent dlock (-pie).
build_target() {
  dir=$1
  shift
  if [ -z "$zig_root" ]; then
    build "$dir" "$@"
    return
  fi
  build "$dir" "$@" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$arch" \
    -DCMAKE_C_COMPILER="$zig_root/bin/zig-cc" -DCMAKE_CXX_COMPILER="$zig_root/bin/zig-c++" \
    -DCMAKE_AR="$zig_root/bin/zig-ar" -DCMAKE_RANLIB="$zig_root/bin/zig-ranlib" \
    -DDLOCK_DEPS_PREFIX="$zig_root/deps" -DOPENSSL_ROOT_DIR="$zig_root/deps" -DOPENSSL_USE_STATIC_LIBS=ON \
    -DCMAKE_FIND_ROOT_PATH="$zig_root/deps" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_SHARED_LINKER_FLAGS=-s "-DCMAKE_EXE_LINKER_FLAGS=-s -pie" \
    -DDLOCK_PACKAGE_STATIC_ARCHIVE=OFF -DDLOCK_PACKAGE_ZIG=ON
}

multiarch="$arch-linux-gnu"
deb_dir="$build_root/deb-$arch"
if [ "$arch" = "$(uname -m)" ]; then
  # Debian's compiler and libraries, with Debian's hardening flags (lintian's
  # hardening-* tags) less its -g -O2 (the build type's -O3 stays), and no
  # .comment sections (-fno-ident).
  deb_flags() { DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1" | sed 's/-g -O2 //'; }
  build "$deb_dir" -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" \
    "-DCMAKE_C_FLAGS=$(deb_flags CPPFLAGS) $(deb_flags CFLAGS) -fno-ident" \
    "-DCMAKE_CXX_FLAGS=$(deb_flags CPPFLAGS) $(deb_flags CXXFLAGS) -fno-ident" \
    "-DCMAKE_SHARED_LINKER_FLAGS=$(deb_flags LDFLAGS)" "-DCMAKE_EXE_LINKER_FLAGS=$(deb_flags LDFLAGS)"
else
  build_target "$deb_dir" -DCMAKE_INSTALL_LIBDIR="lib/$multiarch"
fi
for deb in "$deb_dir"/*.deb; do
  "$source_dir/packaging/deb/finish-deb.sh" "$deb"
  cp "$deb" "$out_dir"
done
build_target "$build_root/rpm-$arch" -DCMAKE_INSTALL_LIBDIR=lib64
build_target "$build_root/tgz-$arch" -DCMAKE_INSTALL_LIBDIR=lib
ls -1 "$out_dir"/*.deb "$out_dir"/*.rpm "$out_dir"/*.tar.gz
