#!/bin/sh
# Builds the packages into OUT_DIR: .deb and .tar.gz from a Debian-layout build
# (libdir lib/<multiarch>), .rpm from an RPM-layout build (libdir lib64).
# Usage: packaging/build-packages.sh OUT_DIR [BUILD_ROOT]
set -eu
out_dir=$(mkdir -p "$1" && cd "$1" && pwd)
build_root=${2:-"$out_dir/build"}
source_dir=$(cd "$(dirname "$0")/.." && pwd)

build() {  # build DIR GENERATORS CMAKE_ARGS...
  dir=$1 generators=$2
  shift 2
  cmake -S "$source_dir" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DDLOCK_BUILD_TESTS=OFF -DDLOCK_BUILD_BENCH=OFF -DDLOCK_BUILD_CLI=ON "$@"
  cmake --build "$dir" -j "${DLOCK_JOBS:-2}"
  (cd "$dir" && cpack -G "$generators")
  cp "$dir"/*.deb "$dir"/*.rpm "$dir"/*.tar.gz "$out_dir" 2>/dev/null || true
}

build "$build_root/deb" "DEB;TGZ"
build "$build_root/rpm" RPM -DCMAKE_INSTALL_LIBDIR=lib64
ls -1 "$out_dir"/*.deb "$out_dir"/*.rpm "$out_dir"/*.tar.gz
