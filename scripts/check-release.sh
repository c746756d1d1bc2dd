#!/usr/bin/env bash
# Installs each artefact scripts/release.sh put into OUT in a clean place and
# takes a lock through it, against redis-servers started here:
#   wheel   a fresh venv, no compiler on PATH, pip --only-binary: a lock over TLS
#   sdist   carries the core (src/, include/) and the licence
#   jar     installed into the local Maven repository with its pom, sources and
#           javadoc jars, then used by a plain Maven project (packaging/tests/java-consumer)
#   .deb    packaging/check-debs.sh (lintian, apt install, C program, dlock run, purge)
#   .rpm    installed into an empty RPM root: only system libraries an RPM
#           distribution provides are left unsatisfied, none newer than Fedora 36's
#   .tar.gz unpacked anywhere, its bin/dlock run from another directory
# Needs root (apt), python3, mvn, rpm, redis-server, openssl.
# Usage: scripts/check-release.sh OUT
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(cd "$1" && pwd)"
version=$(sed -n 's/^#define DLOCK_VERSION_STRING "\([0-9.]*\)"$/\1/p' "$root/include/dlock.h")
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
say() { printf '== %s\n' "$*"; }
# shellcheck source=../packaging/tests/redis-servers.sh
. "$root/packaging/tests/redis-servers.sh"
mkdir -p "$work/redis"
start_plain_redis "$work/redis"
pids+=("$plain_redis_pid")
start_tls_redis "$work/redis"
pids+=("$tls_redis_pid")
plain_url="redis://127.0.0.1:$plain_port"
tls_url="rediss://127.0.0.1:$tls_port?tls_ca=$tls_ca"

for wheel in "$out"/dlock_redis-"$version"-*manylinux*.whl; do
  say "wheel $(basename "$wheel"): a fresh venv without a compiler, a lock over TLS"
  venv="$work/venv-$(basename "$wheel" .whl)"
  python3 -m venv "$venv"
  # PATH holds the venv alone: no cc, c++, cmake or make to fall back on.
  env -i HOME="$work" PATH="$venv/bin" "$venv/bin/pip" install -q --no-index --only-binary=:all: "$wheel"
  env -i HOME="$work" PATH="$venv/bin" DLOCK_URL="$tls_url" "$venv/bin/python" -I - <<'PY'
import os, dlock
with dlock.Client(os.environ["DLOCK_URL"]) as client:
    with client.lock("check-wheel") as lock:
        assert lock.fencing_token > 0
        print(f"dlock {dlock.__version__} over TLS: token {lock.fencing_token}")
PY
  ldd "$venv"/lib/python3*/site-packages/dlock/_dlock*.so | grep -E "ssl|crypto|hiredis" |
    grep -v "dlock_redis.libs" && { echo "the wheel's extension loads a system OpenSSL or hiredis" >&2; exit 1; }
done

say "sdist: the core's sources and the licence are inside"
sdist="$out/dlock_redis-$version.tar.gz"
listing=$(tar tzf "$sdist")
for needed in include/dlock.h src/CMakeLists.txt bindings/python/CMakeLists.txt LICENSE README.md pyproject.toml; do
  grep -q "^dlock_redis-$version/$needed\$" <<<"$listing" || { echo "sdist lacks $needed" >&2; exit 1; }
done

say "jar: installed with its pom, sources and javadoc, used by a plain Maven project"
mvn -B -q install:install-file -Dfile="$out/dlock-$version.jar" -DpomFile="$out/dlock-$version.pom" \
  -Dsources="$out/dlock-$version-sources.jar" -Djavadoc="$out/dlock-$version-javadoc.jar"
jar_listing=$(python3 -m zipfile -l "$out/dlock-$version.jar")
grep -q "META-INF/native/linux-x86_64/libdlock_jni.so" <<<"$jar_listing"
cp -r "$root/packaging/tests/java-consumer" "$work/java-consumer"
token=$(mvn -B -q -Dstyle.color=never -f "$work/java-consumer/pom.xml" -Ddlock.version="$version" compile exec:java \
  -Dexec.args="$plain_url" | sed -n 's/.*token \([0-9]*\)$/\1/p')
[[ "$token" == "$(redis-cli -p "$plain_port" get 'redisson_lock_token:{check-jar}')" ]]
echo "jar: token $token"

say "tarball: bin/dlock from anywhere, no LD_LIBRARY_PATH"
tar -xzf "$out/dlock-$version-linux-$(uname -m).tar.gz" -C "$work"
(cd / && env -u LD_LIBRARY_PATH DLOCK_URL="$plain_url" \
  "$work/dlock-$version-linux-$(uname -m)/bin/dlock" run check-tarball -- true)

say "rpm: installed into an empty RPM root; only system libraries left to the distribution"
rpm_root="$work/rpm-root"
rpm --root "$rpm_root" --initdb
rpm --root "$rpm_root" -i --nodeps --noscripts "$out"/*.rpm 2>/dev/null
# rpm -V fails (unsatisfied dependencies): that is the list wanted.
unsatisfied=$({ rpm --root "$rpm_root" -V -a 2>&1 || true; } | sed -n 's/^[[:space:]]*\(.*\) is needed by .*/\1/p' | sort -u)
# What an RPM distribution's glibc, libstdc++/libgcc, OpenSSL 3 and pkgconf provide,
# at versions Fedora 36+ and RHEL 10 have (glibc 2.34+, GCC 12's GLIBCXX_3.4.30:
# GCC 12's headers bind std::condition_variable::wait to it, so RHEL 9's GCC 11
# libstdc++ is not enough).
foreign=$(grep -v -E '^(rtld\(GNU_HASH\)|ld-linux-x86-64\.so\.2|libc\.so\.6|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libssl\.so\.3|libcrypto\.so\.3|libm\.so\.6|/usr/bin/pkg-config)' <<<"$unsatisfied" || true)
[[ -z "$foreign" ]] || { printf 'the .rpm needs what RPM distributions do not provide:\n%s\n' "$foreign" >&2; exit 1; }
too_new=$(grep -E 'GLIBC_2\.(3[5-9]|[4-9][0-9])|GLIBCXX_3\.4\.(3[1-9])' <<<"$unsatisfied" || true)
[[ -z "$too_new" ]] || { printf 'the .rpm needs a newer system than Fedora 36:\n%s\n' "$too_new" >&2; exit 1; }
[[ -x "$rpm_root/usr/bin/dlock" ]] && ls "$rpm_root"/usr/lib64/libdlock.so.1.*.* >/dev/null

say ".deb: lintian, install, use, purge"
"$root/packaging/check-debs.sh" "$out"
say "all release artefacts installed and used"
