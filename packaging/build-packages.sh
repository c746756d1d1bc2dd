#!/bin/sh
# Builds the packages into OUT_DIR, each from its own configure because each
# wants its own layout:
#   .deb     Debian multiarch layout (libdir lib/<multiarch>)
#   .rpm     RPM layout (libdir lib64)
#   .tar.gz  one relocatable tree (libdir lib; bin/dlock finds it via $ORIGIN/../lib)
# hiredis is linked in; what they need of the system is glibc >= 2.34,
# libstdc++ of GCC >= 12 (GLIBCXX_3.4.30) and OpenSSL 3. (Linking libstdc++
# statically would raise the glibc floor to 2.36: GCC 12's libstdc++.a calls
# arc4random and its libgcc_eh _dl_find_object, both newer than 2.34.)
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

build() {  # build DIR CMAKE_ARGS...
  dir=$1
  shift
  # shellcheck disable=SC2086
  cmake -S "$source_dir" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_DEMO=OFF -DDLOCK_BUILD_CLI=ON \
    $launcher "$@" >/dev/null
  cmake --build "$dir" -j "${DLOCK_JOBS:-2}"
  (cd "$dir" && cpack >/dev/null)
  cp "$dir"/*.deb "$dir"/*.rpm "$dir"/*.tar.gz "$out_dir" 2>/dev/null || true
}

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo "$(uname -m)-linux-gnu")
build "$build_root/deb" -DCMAKE_INSTALL_LIBDIR="lib/$multiarch"
for deb in "$build_root"/deb/*.deb; do
  "$source_dir/packaging/deb/finish-deb.sh" "$deb"
  cp "$deb" "$out_dir"
done
build "$build_root/rpm" -DCMAKE_INSTALL_LIBDIR=lib64
build "$build_root/tgz" -DCMAKE_INSTALL_LIBDIR=lib
ls -1 "$out_dir"/*.deb "$out_dir"/*.rpm "$out_dir"/*.tar.gz
