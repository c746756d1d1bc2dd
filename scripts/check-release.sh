#!/usr/bin/env bash
# Installs each artefact scripts/release.sh put into OUT in a clean place and
# takes a lock through it, against redis-servers and a ZooKeeper server started
# here (the wheel, the jar and the .tar.gz take one on each: the ZooKeeper client
# is inside them):
#   wheel   each wheel with the CPython its tag names (scripts/release-lib.sh's
#           target_python): where one runs here (pyenv, PATH), a fresh venv, no compiler
#           on PATH, pip --only-binary; else Debian's in its own tree, under qemu for
#           aarch64, the wheel installed by pip for that platform and ABI: a lock over TLS
#   sdist   carries the core (src/, include/) and the licence
#   jar     installed into the local Maven repository with its pom, sources and
#           javadoc jars, then used by a plain Maven project (packaging/tests/java-consumer);
#           its linux-aarch64 library, when there, used by Debian's arm64 JVM under qemu
#   .deb    packaging/check-debs.sh (lintian, apt install, C program, dlock run, purge);
#           arm64 ones: lintian, their architecture and dependencies
#   .rpm    installed into an empty RPM root per architecture: only system libraries
#           an RPM distribution provides are left unsatisfied, none newer than RHEL 8's
#           (glibc 2.28) for a Zig build, than Fedora 36's for a system compiler's
#   .tar.gz unpacked anywhere, its bin/dlock run from another directory (aarch64: under qemu)
# Every artefact is checked to need no SQL client library (readelf's NEEDED) and to
# refuse postgresql:// and mysql:// as "not in this build", naming the backend (docs/sql.md).
# Needs root (apt, chroot), python3, mvn, rpm, redis-server, openssl, readelf, Debian's
# zookeeper (the server) and a JRE; for aarch64
# artefacts mmdebstrap and qemu-user-static (installed when missing).
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
# The tests' standalone ZooKeeper server, run as a program: it prints its URL.
coproc zookeeper { exec python3 "$root/tests/support/zookeeper_server.py"; }
pids+=("$zookeeper_PID")
read -r zk_url <&"${zookeeper[0]}" || { echo "the ZooKeeper server did not start" >&2; exit 1; }

# shellcheck source=release-lib.sh
. "$root/scripts/release-lib.sh"

# The release builds leave the SQL backends out (scripts/release.sh): no shipped ELF file
# may need libpq or MariaDB's (or MySQL's) client library.
# no_sql_client WHAT FILE...
no_sql_client() {
  local what=$1
  shift
  if readelf -d "$@" | grep -E '\(NEEDED\).*\[lib(pq|mariadb|mysqlclient)\.so'; then
    echo "$what needs an SQL client library: the release builds must leave the SQL backends out" >&2
    exit 1
  fi
}
# The URLs each artefact must refuse, and what its refusal must say.
sql_urls=("postgresql://dlock@127.0.0.1:1/dlock" "mysql://dlock@127.0.0.1:1/dlock")
sql_refusal='(postgresql|mysql) backend is not in this build'
# What each wheel's interpreter runs; DLOCK_CHECK_PATH: where the wheel was unpacked, if not installed.
check_wheel_py='
import os, sys
sys.path[:0] = [p for p in [os.environ.get("DLOCK_CHECK_PATH")] if p]
import platform, dlock
with dlock.Client(os.environ["DLOCK_URL"]) as client:
    with client.lock("check-wheel") as lock:
        assert lock.fencing_token > 0
        print(f"dlock {dlock.__version__} on CPython {platform.python_version()} {platform.machine()} over TLS: token {lock.fencing_token}")
with dlock.Client(os.environ["DLOCK_ZK_URL"]) as client:
    with client.lock("check-wheel") as lock:
        assert lock.fencing_token > 0
        print(f"and on ZooKeeper: token {lock.fencing_token}")
for url in os.environ["DLOCK_SQL_URLS"].split():
    try:
        dlock.Client(url).close()
    except dlock.UnsupportedError as refused:
        print(f"refused: {refused}")
    else:
        raise AssertionError(f"the wheel opened {url}: its build has an SQL backend")
'
for wheel in "$out"/dlock_redis-"$version"-*manylinux*.whl; do
  name=$(basename "$wheel" .whl)
  abi=$(cut -d- -f4 <<<"$name")
  platform_tag=$(cut -d- -f5 <<<"$name")
  wheel_arch=${platform_tag#manylinux_*_*_}
  python_version="3.${abi#cp3}"
  target_python "$wheel_arch" "$python_version" "$work/python-$wheel_arch-$python_version"
  if [[ "$python" != "$work"/* ]]; then
    say "wheel $name: CPython $python_version ($python), a fresh venv without a compiler, a lock over TLS and one on ZooKeeper"
    venv="$work/venv-$name"
    "$python" -m venv "$venv"
    # PATH holds the venv alone: no cc, c++, cmake or make to fall back on.
    env -i HOME="$work" PATH="$venv/bin" "$venv/bin/pip" install -q --no-index --only-binary=:all: "$wheel"
    refusals=$(env -i HOME="$work" PATH="$venv/bin" DLOCK_URL="$tls_url" DLOCK_ZK_URL="$zk_url" \
      DLOCK_SQL_URLS="${sql_urls[*]}" "$venv/bin/python" -I -c "$check_wheel_py")
    echo "$refusals"
    [[ "$(grep -c -E "refused: .*$sql_refusal" <<<"$refusals")" == "${#sql_urls[@]}" ]]
    no_sql_client "the wheel's extension" "$venv"/lib/python3*/site-packages/dlock/_dlock*.so
    ldd "$venv"/lib/python3*/site-packages/dlock/_dlock*.so | grep -E "ssl|crypto|hiredis|zookeeper" |
      grep -v "dlock_redis.libs" && { echo "the wheel's extension loads a system OpenSSL, hiredis or ZooKeeper client" >&2; exit 1; }
  else
    say "wheel $name: Debian's CPython $python_version in $tree, a lock over TLS and one on ZooKeeper"
    # pip installs it only if the wheel's tags fit that platform and ABI.
    target="/opt/dlock-check/$name"
    rm -rf "${tree:?}/opt/dlock-check"
    python3 -m pip install -q --root-user-action=ignore --disable-pip-version-check --no-deps \
      --only-binary=:all: --platform "$platform_tag" \
      --python-version "$python_version" --implementation cp --abi "$abi" --target "$tree$target" "$wheel"
    cp "$tls_ca" "$tree/opt/dlock-check/ca.crt"
    refusals=$(env -i DLOCK_CHECK_PATH="$target" DLOCK_URL="rediss://127.0.0.1:$tls_port?tls_ca=/opt/dlock-check/ca.crt" \
      DLOCK_ZK_URL="$zk_url" DLOCK_SQL_URLS="${sql_urls[*]}" bash -c '. "$1"; shift; in_tree "$@"' - \
      "$root/scripts/release-lib.sh" "$tree" "/usr/bin/python$python_version" -I -c "$check_wheel_py")
    echo "$refusals"
    [[ "$(grep -c -E "refused: .*$sql_refusal" <<<"$refusals")" == "${#sql_urls[@]}" ]]
    no_sql_client "the wheel's extension" "$tree$target"/dlock/_dlock*.so
  fi
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
consumed=$(mvn -B -q -Dstyle.color=never -f "$work/java-consumer/pom.xml" -Ddlock.version="$version" compile exec:java \
  -Dexec.args="$plain_url ${sql_urls[*]}")
token=$(sed -n 's/.*token \([0-9]*\)$/\1/p' <<<"$consumed")
[[ "$token" == "$(redis-cli -p "$plain_port" get 'redisson_lock_token:{check-jar}')" ]]
echo "jar: token $token"
grep 'refused: ' <<<"$consumed"
[[ "$(grep -c -E "refused: UNSUPPORTED: .*$sql_refusal" <<<"$consumed")" == "${#sql_urls[@]}" ]]
mkdir -p "$work/jar"
(cd "$work/jar" && python3 -m zipfile -e "$out/dlock-$version.jar" .)
no_sql_client "the jar's JNI library" "$work"/jar/META-INF/native/linux-*/libdlock_jni.so
token=$(mvn -B -q -Dstyle.color=never -f "$work/java-consumer/pom.xml" -Ddlock.version="$version" exec:java \
  -Dexec.args="$zk_url" | sed -n 's/.*token \([0-9]*\)$/\1/p')
[[ "$token" -gt 0 ]] || { echo "jar: no lock on ZooKeeper" >&2; exit 1; }
echo "jar on ZooKeeper: token $token"
if grep -q "META-INF/native/linux-aarch64/libdlock_jni.so" <<<"$jar_listing"; then
  say "jar: its linux-aarch64 library in Debian's arm64 JVM under qemu"
  debian_tree aarch64 bookworm
  mkdir -p "$work/consumer-classes"
  javac -d "$work/consumer-classes" -cp "$out/dlock-$version.jar" \
    "$root/packaging/tests/java-consumer/src/main/java/check/Consumer.java"
  rm -rf "$tree/opt/dlock-check-jar"
  mkdir -p "$tree/opt/dlock-check-jar"
  cp -r "$out/dlock-$version.jar" "$work/consumer-classes" "$tree/opt/dlock-check-jar/"
  token=$(in_tree "$tree" /usr/lib/jvm/java-17-openjdk-arm64/bin/java \
    -cp "/opt/dlock-check-jar/dlock-$version.jar:/opt/dlock-check-jar/consumer-classes" \
    check.Consumer "$plain_url" | sed -n 's/.*token \([0-9]*\)$/\1/p')
  [[ "$token" == "$(redis-cli -p "$plain_port" get 'redisson_lock_token:{check-jar}')" ]]
  echo "jar on aarch64: token $token"
fi

say "jar: the integrations carry their classes"
for class in io/dlock/shedlock/DLockLockProvider io/dlock/spring/DLockRegistry io/dlock/micrometer/DLockMetrics; do
  integration=$(cut -d/ -f3 <<<"$class")
  # grep -q reads the listing whole from a string: on a pipe it stops early and, under pipefail,
  # the writer's broken pipe failed the check although the class was there.
  grep -q "$class.class" <<<"$(python3 -m zipfile -l "$out/dlock-$integration-$version.jar")" ||
    { echo "dlock-$integration-$version.jar lacks $class" >&2; exit 1; }
done

say "tarball: bin/dlock from anywhere, no LD_LIBRARY_PATH"
tar -xzf "$out/dlock-$version-linux-$(uname -m).tar.gz" -C "$work"
(cd / && env -u LD_LIBRARY_PATH DLOCK_URL="$plain_url" \
  "$work/dlock-$version-linux-$(uname -m)/bin/dlock" run check-tarball -- true)
token=$(cd / && env -u LD_LIBRARY_PATH DLOCK_URL="$zk_url" \
  "$work/dlock-$version-linux-$(uname -m)/bin/dlock" run check-tarball -- sh -c 'echo "$DLOCK_FENCING_TOKEN"')
[[ "$token" -gt 0 ]] || { echo "tarball: no lock on ZooKeeper" >&2; exit 1; }
echo "tarball on ZooKeeper: token $token"
no_sql_client "the tarball" "$work/dlock-$version-linux-$(uname -m)"/bin/dlock \
  "$work/dlock-$version-linux-$(uname -m)"/lib/libdlock.so.*.*.*
for url in "${sql_urls[@]}"; do
  # 69: the backend is unavailable (docs/cli.md).
  status=0
  refusal=$(env -u LD_LIBRARY_PATH DLOCK_URL="$url" "$work/dlock-$version-linux-$(uname -m)/bin/dlock" \
    status check-tarball 2>&1) || status=$?
  echo "tarball: $refusal"
  [[ "$status" == 69 ]] && grep -q -E "$sql_refusal" <<<"$refusal"
done
if [[ -f "$out/dlock-$version-linux-aarch64.tar.gz" ]]; then
  say "tarball (aarch64): bin/dlock under qemu in Debian's arm64 tree, from /"
  debian_tree aarch64 bookworm
  rm -rf "$tree/opt/dlock-$version-linux-aarch64"
  tar -xzf "$out/dlock-$version-linux-aarch64.tar.gz" -C "$tree/opt"
  no_sql_client "the aarch64 tarball" "$tree/opt/dlock-$version-linux-aarch64"/lib/libdlock.so.*.*.*
  # qemu runs no second program (no binfmt here), so status, not run: one round
  # trip; 3 is "not held".
  status=0
  DLOCK_URL="$plain_url" in_tree "$tree" "/opt/dlock-$version-linux-aarch64/bin/dlock" status check-tarball || status=$?
  [[ "$status" == 3 ]] || { echo "aarch64 dlock status exited $status, not 3" >&2; exit 1; }
fi

for rpm_arch in $(ls "$out"/*.rpm | sed 's/.*\.\([^.]*\)\.rpm$/\1/' | sort -u); do
  say "rpm ($rpm_arch): installed into an empty RPM root; only system libraries left to the distribution"
  rpm_root="$work/rpm-root-$rpm_arch"
  rpm --root "$rpm_root" --initdb
  rpm --root "$rpm_root" -i --nodeps --noscripts --ignorearch "$out"/*."$rpm_arch".rpm 2>/dev/null
  # rpm -V fails (unsatisfied dependencies): that is the list wanted.
  unsatisfied=$({ rpm --root "$rpm_root" -V -a 2>&1 || true; } | sed -n 's/^[[:space:]]*\(.*\) is needed by .*/\1/p' | sort -u)
  # What an RPM distribution's glibc, libstdc++/libgcc, OpenSSL 3 and pkgconf provide.
  foreign=$(grep -v -E '^(rtld\(GNU_HASH\)|ld-linux-(x86-64|aarch64)\.so\.[12]|lib(c|m|dl|pthread|rt)\.so\.[0-9]|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libssl\.so\.3|libcrypto\.so\.3|/usr/bin/pkg-config)' <<<"$unsatisfied" || true)
  [[ -z "$foreign" ]] || { printf 'the .rpm needs what RPM distributions do not provide:\n%s\n' "$foreign" >&2; exit 1; }
  if grep -q -E '^(libstdc\+\+|libssl|libcrypto)' <<<"$unsatisfied"; then
    # The system compiler's: Fedora 36+ and RHEL 10 (glibc 2.34+, GCC 12's
    # GLIBCXX_3.4.30: GCC 12's headers bind std::condition_variable::wait to it).
    too_new=$(grep -E 'GLIBC_2\.(3[5-9]|[4-9][0-9])|GLIBCXX_3\.4\.(3[1-9])' <<<"$unsatisfied" || true)
    floor="Fedora 36"
  else
    # Zig's (glibc 2.28, OpenSSL and libc++ inside): RHEL 8 and newer.
    too_new=$(grep -E 'GLIBC_2\.(29|[3-9][0-9])' <<<"$unsatisfied" || true)
    floor="RHEL 8 (glibc 2.28)"
  fi
  [[ -z "$too_new" ]] || { printf 'the .rpm needs a newer system than %s:\n%s\n' "$floor" "$too_new" >&2; exit 1; }
  [[ -x "$rpm_root/usr/bin/dlock" ]] && ls "$rpm_root"/usr/lib64/libdlock.so.1.*.* >/dev/null
  no_sql_client "the .rpm" "$rpm_root/usr/bin/dlock" "$rpm_root"/usr/lib64/libdlock.so.1.*.*
  echo "rpm ($rpm_arch): left to the system: $(sed 's/(.*//' <<<"$unsatisfied" | sort -u | paste -sd ' ');" \
    "newest glibc symbol $(grep -o 'GLIBC_[0-9.]*' <<<"$unsatisfied" | sort -V | tail -n1); nothing newer than $floor"
done

for deb in "$out"/*_arm64.deb; do
  [[ -f "$deb" ]] || continue
  say "deb (arm64) $(basename "$deb"): architecture and dependencies"
  [[ "$(dpkg-deb -f "$deb" Architecture)" == arm64 ]]
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "depends on: $depends"
  grep -q 'libc6 (>= 2.28)' <<<"$depends"
  if grep -q '/usr/lib/aarch64-linux-gnu/libdlock.so.1.' <<<"$(dpkg-deb -c "$deb")"; then
    dpkg-deb -x "$deb" "$work/deb-arm64"
    grep -q 'ARM aarch64' <<<"$(file -L "$work"/deb-arm64/usr/lib/aarch64-linux-gnu/libdlock.so.1)"
    no_sql_client "the arm64 .deb" "$work"/deb-arm64/usr/lib/aarch64-linux-gnu/libdlock.so.1
  fi
done

say ".deb: lintian, install, use, purge"
"$root/packaging/check-debs.sh" "$out"
say "all release artefacts installed and used"
