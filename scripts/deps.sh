#!/usr/bin/env bash
# Installs what building and testing dlock needs on Debian 12, skipping
# what is already there. Usage: scripts/deps.sh [core|all]
set -euo pipefail

# redis-tools: redis-cli, with which the cluster tests create their clusters
# (redis-server depends on it today; named so that stays true).
core=(cmake ninja-build g++ pkg-config libhiredis-dev libssl-dev dpkg-dev redis-server redis-tools
      libgtest-dev openssl python3)
# javacc: scripts/deps-zookeeper.sh makes the ZooKeeper C client's jute sources
# with it; zookeeper: the server the ZooKeeper tests start (tests/support/zk_ensemble).
# libpq-dev, libmariadb-dev: the SQL backend's client libraries (cmake/DlockSql.cmake);
# postgresql-15 (with psql) and mariadb-server (with the mariadb client): the servers
# the SQL tests start (tests/support/pg_server, mariadb_server).
all=("${core[@]}" swig default-jdk-headless maven python3-venv rpm lintian file javacc zookeeper
     libpq-dev libmariadb-dev postgresql-15 postgresql-client-15 mariadb-server mariadb-client)

wanted=("${core[@]}")
[[ "${1:-core}" == all ]] && wanted=("${all[@]}")

missing=()
for package in "${wanted[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$package")
done
# A JDK and Maven installed outside apt (as on some images) will do.
if [[ " ${missing[*]} " == *" default-jdk-headless "* ]] && command -v javac >/dev/null; then
  missing=("${missing[@]/default-jdk-headless}")
fi
if [[ " ${missing[*]} " == *" maven "* ]] && command -v mvn >/dev/null; then
  missing=("${missing[@]/maven}")
fi
read -r -a missing <<<"${missing[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo=sudo
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian starts a redis-server service on port 6379 when installing it; the
# tests never use it (they start their own servers on free ports).
# hiredis 1.2.0 with TLS, built once into a private prefix (see the script).
$sudo "$(dirname "$0")/deps-hiredis.sh" "${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}"
# The ZooKeeper C client, static, into the same prefix (see the script); it needs
# the JDK and javacc above, so `core` builds go without the ZooKeeper backend.
if [[ "${1:-core}" == all ]]; then
  $sudo "$(dirname "$0")/deps-zookeeper.sh" "${DLOCK_DEPS_PREFIX:-/opt/dlock-deps}"
fi
