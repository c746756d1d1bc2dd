# Sourced by the release scripts: where a target's CPython and JVM come from.
#
#   debian_tree ARCH SUITE          sets tree: a Debian SUITE tree for ARCH (x86_64 or
#                                   aarch64), made once under DLOCK_ROOTS (default
#                                   /opt/dlock-deps/roots) by mmdebstrap, holding that
#                                   suite's CPython with its headers (and, for arm64
#                                   bookworm, a JRE). Packages are only unpacked, not
#                                   configured, so no emulator is needed to make it;
#                                   an arm64 tree carries qemu-aarch64-static to run them.
#   in_tree TREE COMMAND...         runs COMMAND (a path inside TREE) chrooted into
#                                   TREE, under qemu when it is another architecture's
#   target_python ARCH X.Y DIR      sets python (an executable: the CPython X.Y that runs
#                                   ARCH's code) and python_include (its headers with the
#                                   ARCH's pyconfig.h). On this machine's architecture, a
#                                   pyenv or PATH CPython X.Y if one runs, else Debian's;
#                                   for another, Debian's under qemu. DIR holds the
#                                   wrapper and headers made for it.
# Debian's suites carry CPython 3.9 (bullseye), 3.11 (bookworm) and 3.13 (trixie);
# 3.10 and 3.12 were never in a Debian release, so they come only from pyenv.
# Needs root (chroot), mmdebstrap, and qemu-user-static for aarch64.

debian_arch() { case "$1" in x86_64) echo amd64 ;; aarch64) echo arm64 ;; *) return 1 ;; esac; }

debian_suite_python() {
  case "$1" in bullseye) echo 3.9 ;; bookworm) echo 3.11 ;; trixie) echo 3.13 ;; *) return 1 ;; esac
}

# The Debian mirror this machine's apt uses (its deb822 or one-line sources: the
# first URI ending in /debian), else Debian's own.
debian_mirror() {
  local mirror
  mirror=$(sed -n 's/^URIs:[[:space:]]*\(\S*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
  [[ -n "$mirror" ]] || mirror=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(\S*\/debian\)\/\?[[:space:]].*/\2/p' \
    /etc/apt/sources.list 2>/dev/null | head -n1)
  echo "${mirror:-http://deb.debian.org/debian}"
}

debian_tree() {
  local arch=$1 suite=$2 debarch py packages
  debarch=$(debian_arch "$arch")
  py=$(debian_suite_python "$suite")
  packages="python$py,libpython$py-dev"
  # pybind11 asks CPython < 3.10 for its extension suffix through distutils.
  [[ "$suite" == bullseye ]] && packages+=",python3-distutils"
  # The jar's aarch64 natives are checked in an arm64 JVM.
  [[ "$suite" == bookworm && "$debarch" == arm64 ]] && packages+=",openjdk-17-jre-headless"
  tree="${DLOCK_ROOTS:-/opt/dlock-deps/roots}/$suite-$debarch"
  [[ "$(cat "$tree/.dlock-packages" 2>/dev/null)" == "$packages" ]] && return 0
  echo "Making a Debian $suite $debarch tree ($packages) in $tree" >&2
  command -v mmdebstrap >/dev/null || apt-get install -y -q mmdebstrap >/dev/null
  rm -rf "$tree"
  mkdir -p "$(dirname "$tree")"
  mmdebstrap --quiet --mode=root --variant=extract --architectures="$debarch" --include="$packages" \
    "$suite" "$tree" "$(debian_mirror)" >&2
  # Unpacked only, so the merged-/usr links a configured system has are missing.
  local dir
  for dir in bin sbin lib lib64; do
    [[ -e "$tree/$dir" || ! -d "$tree/usr/$dir" ]] || ln -s "usr/$dir" "$tree/$dir"
  done
  if [[ "$arch" != "$(uname -m)" ]]; then
    command -v qemu-aarch64-static >/dev/null || apt-get install -y -q qemu-user-static >/dev/null
    cp "$(command -v "qemu-$arch-static")" "$tree/usr/bin/"
  fi
  echo "$packages" >"$tree/.dlock-packages"
}

in_tree() {
  local tree=$1
  shift
  if [[ -x "$tree/usr/bin/qemu-aarch64-static" ]]; then
    chroot "$tree" /usr/bin/qemu-aarch64-static "$@"
  else
    chroot "$tree" "$@"
  fi
}

# copy_python_headers FROM PYCONFIG TO: sets python_include (TO), CPython's headers
# with PYCONFIG as pyconfig.h, less what Zig's glibc 2.28 headers lack: crypt.h
# (libcrypt's), which CPython 3.9's Python.h includes when the build machine had it.
copy_python_headers() {
  python_include=$3
  rm -rf "$python_include"
  mkdir -p "$(dirname "$python_include")"
  cp -r "$1" "$python_include"
  cp "$2" "$python_include/pyconfig.h"
  printf '\n#undef HAVE_CRYPT_H\n' >>"$python_include/pyconfig.h"
}

target_python() {
  local arch=$1 version=$2 dir=$3 candidate suite
  mkdir -p "$dir"
  python="" python_include=""
  if [[ "$arch" == "$(uname -m)" ]]; then
    for candidate in "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/"$version".*/bin/python"$version" \
      "$(command -v "python$version" || true)"; do
      if [[ -x "$candidate" ]] && "$candidate" -c 'import sys' 2>/dev/null; then
        local include
        include=$("$candidate" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
        if [[ -f "$include/Python.h" ]]; then
          python=$candidate
          copy_python_headers "$include" "$include/pyconfig.h" "$dir/include/python$version"
          return 0
        fi
      fi
    done
  fi
  for suite in bullseye bookworm trixie; do
    [[ "$(debian_suite_python "$suite")" == "$version" ]] || continue
    debian_tree "$arch" "$suite"
    # FindPython and pybind11 ask the interpreter (version, EXT_SUFFIX), so it
    # is the target's own, run in its tree; the headers are copied out with the
    # target's pyconfig.h in place of Debian's per-architecture dispatcher.
    python="$dir/python$version"
    printf '#!/usr/bin/env bash\n. "%s"\nin_tree "%s" /usr/bin/python%s "$@"\n' \
      "$(realpath "${BASH_SOURCE[0]}")" "$tree" "$version" >"$python"
    chmod +x "$python"
    copy_python_headers "$tree/usr/include/python$version" \
      "$tree/usr/include/$arch-linux-gnu/python$version/pyconfig.h" "$dir/include/python$version"
    return 0
  done
  echo "no CPython $version for $arch: neither pyenv nor a Debian suite has it" >&2
  return 1
}
