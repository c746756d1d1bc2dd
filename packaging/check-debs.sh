#!/bin/sh
# Checks the built .deb packages on this machine: lintian reports no errors;
# they install (with their dependencies); a C program builds against the
# installed libdlock-dev with pkg-config and runs; the installed dlock command
# runs a command under a lock on a redis-server started here; they remove
# cleanly. Needs root, apt, lintian, a C compiler, redis-server and python3.
# Usage: packaging/check-debs.sh DIR_WITH_DEBS
set -eu
deb_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
packages="libdlock1 libdlock-dev dlock-tools"
work=$(mktemp -d)
redis_pid=""

cleanup() {
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null || true
  apt-get purge -y -q $packages >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf '== %s\n' "$*"; }

say "lintian"
lintian --fail-on error "$deb_dir"/*.deb

say "install"
apt-get install -y -q --no-install-recommends "$deb_dir"/libdlock1_*.deb \
  "$deb_dir"/libdlock-dev_*.deb "$deb_dir"/dlock-tools_*.deb
version=$(dpkg-query -W -f '${Version}' libdlock1)

say "C program built with pkg-config against the installed package"
# No rpath: the library must be found where the package put it.
cc -std=c99 -Wall -Werror "$here/tests/consumer/main.c" $(pkg-config --cflags --libs dlock) \
  -o "$work/consumer"
"$work/consumer" "$version"

say "dlock run against a local redis-server"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >/dev/null &
redis_pid=$!
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
export DLOCK_URL="redis://127.0.0.1:$port"
token=$(dlock run check -- sh -c 'echo "$DLOCK_FENCING_TOKEN"')
[ "$token" = "$(redis-cli -p "$port" get 'redisson_lock_token:{check}')" ]
dlock status check
man -w dlock >/dev/null 2>&1 || [ -f /usr/share/man/man1/dlock.1.gz ]

say "remove"
apt-get purge -y -q $packages >/dev/null
! dpkg-query -W -f '${Status}\n' $packages 2>/dev/null | grep -q "install ok installed"
say "all package checks passed"
