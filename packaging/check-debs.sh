#!/bin/sh
# Checks the built .deb packages on this machine: lintian reports no errors or warnings;
# they install (with their dependencies); a C program builds against the
# installed libdlock-dev with pkg-config and runs; the installed dlock command
# runs a command under a lock on a redis-server started here (and, when
# libdlock1 embeds hiredis with TLS, over rediss:// with certificates made
# here); a C program links statically against libdlock.a; they remove cleanly.
# lintian reads every .deb in the directory; the rest uses this machine's
# architecture's (a cross-built arm64 set beside them is checked by
# scripts/check-release.sh).
# Needs root, apt, lintian, a C compiler, redis-server and python3.
# Usage: packaging/check-debs.sh DIR_WITH_DEBS
set -eu
deb_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
packages="libdlock1 libdlock-dev dlock-tools"
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
redis_pid=""
tls_redis_pid=""

cleanup() {
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null || true
  [ -n "$tls_redis_pid" ] && kill "$tls_redis_pid" 2>/dev/null || true
  apt-get purge -y -q $packages >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf '== %s\n' "$*"; }
. "$here/tests/redis-servers.sh"

say "lintian"
lintian --fail-on error,warning "$deb_dir"/*.deb

say "dependencies"
# hiredis is either a shared dependency (Debian's, no TLS) or embedded with TLS
# (then OpenSSL is the dependency): never both.
depends=$(dpkg-deb -f "$deb_dir"/libdlock1_*_"$arch".deb Depends)
echo "libdlock1 depends on: $depends"
with_tls=no
case "$depends" in *libssl3*) with_tls=yes ;; esac
if [ "$with_tls" = yes ]; then
  case "$depends" in *libhiredis*) echo "libdlock1 embeds hiredis yet depends on libhiredis" >&2; exit 1 ;; esac
else
  case "$depends" in *libhiredis*) ;; *) echo "libdlock1 depends on no hiredis" >&2; exit 1 ;; esac
fi

# The release builds leave the SQL backends out (scripts/release.sh, docs/sql.md).
case "$depends" in *libpq*|*libmariadb*) echo "libdlock1 depends on an SQL client library" >&2; exit 1 ;; esac

say "install"
apt-get install -y -q --no-install-recommends "$deb_dir"/libdlock1_*_"$arch".deb \
  "$deb_dir"/libdlock-dev_*_"$arch".deb "$deb_dir"/dlock-tools_*_"$arch".deb
version=$(dpkg-query -W -f '${Version}' libdlock1)

say "C program built with pkg-config against the installed package"
# No rpath: the library must be found where the package put it.
cc -std=c99 -Wall -Werror "$here/tests/consumer/main.c" $(pkg-config --cflags --libs dlock) \
  -o "$work/consumer"
"$work/consumer" "$version"

say "C program linked statically against libdlock.a (pkg-config --static)"
libdir=$(pkg-config --variable=libdir dlock)
cc -std=c99 -Wall -Werror "$here/tests/consumer/main.c" $(pkg-config --cflags dlock) "$libdir/libdlock.a" \
  $(pkg-config --static --libs dlock | sed 's/-ldlock//; s/-L[^ ]*//') -o "$work/static-consumer"
# Under set -e a negated command never stops the script, so each refusal is spelled out.
if ldd "$work/static-consumer" | grep -q libdlock; then echo "static consumer loads libdlock" >&2; exit 1; fi
"$work/static-consumer" "$version"

say "dlock run against a local redis-server"
start_plain_redis "$work"
redis_pid=$plain_redis_pid
port=$plain_port
export DLOCK_URL="redis://127.0.0.1:$port"
token=$(dlock run check -- sh -c 'echo "$DLOCK_FENCING_TOKEN"')
[ "$token" = "$(redis-cli -p "$port" get 'redisson_lock_token:{check}')" ]
# status exits 3 for a lock nobody holds, 0 while one is held
status=0
dlock status check || status=$?
[ "$status" = 3 ]
dlock run check-held -- dlock status check-held >/dev/null

if [ "$with_tls" = yes ]; then
  say "dlock run over rediss:// (TLS)"
  start_tls_redis "$work"
  tls_cli="redis-cli --tls --cacert $tls_ca -p $tls_port"
  token=$(DLOCK_URL="rediss://127.0.0.1:$tls_port?tls_ca=$work/ca.crt" \
    dlock run check-tls -- sh -c 'echo "$DLOCK_FENCING_TOKEN"')
  [ "$token" = "$($tls_cli get 'redisson_lock_token:{check-tls}')" ]
fi
man -w dlock >/dev/null 2>&1 || [ -f /usr/share/man/man1/dlock.1.gz ]

say "remove"
apt-get purge -y -q $packages >/dev/null
if dpkg-query -W -f '${Status}\n' $packages 2>/dev/null | grep -q "install ok installed"; then
  echo "purged packages are still installed" >&2; exit 1
fi
say "all package checks passed"
