#!/usr/bin/env bash
# Installs valkey-server 8, valkey-sentinel and valkey-tools (valkey-cli, which
# the cluster tests use to create their clusters) from Debian's
# bookworm-backports, for running the test suites against Valkey as well as
# Redis (DLOCK_TEST_REDIS_SERVER=valkey-server). Only valkey's packages come from
# backports: apt prefers bookworm's own versions of everything else.
set -euo pipefail

if command -v valkey-server >/dev/null && command -v valkey-sentinel >/dev/null && command -v valkey-cli >/dev/null; then
  exit 0
fi
list=/etc/apt/sources.list.d/dlock-bookworm-backports.sources
if [[ ! -f "$list" ]]; then
  mirror="$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)"
  printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "${mirror:-http://deb.debian.org/debian}" >"$list"
fi
apt-get update -qq -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  -t bookworm-backports valkey-server valkey-sentinel valkey-tools >/dev/null
# Like redis-server, the package starts a service on port 6379; the tests
# never use it (they start their own servers on free ports).
valkey-server --version
valkey-cli --version
