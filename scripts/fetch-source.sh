#!/usr/bin/env bash
# Fetches the upstream tarball of a third-party source named in
# scripts/sources.lock into DIR (a cache: a tarball already there whose checksum
# matches is used as it is) and prints its path.
#   scripts/fetch-source.sh NAME DIR
# The pinned Debian version comes first and must match its SHA-256. Debian
# drops superseded versions from its pool (the index may still list them, and
# their files then answer 404), so when the pinned one cannot be had the other
# versions the index lists are tried, newest first; apt checks each file against
# Debian's signed index, and a warning gives the line to pin. Needs root for the
# deb-src entry and apt-get update (as scripts/deps.sh). DLOCK_SOURCES_LOCK names
# another pin file (scripts/test-fetch-source.sh uses it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -eq 2 ]] || { echo "usage: scripts/fetch-source.sh NAME DIR" >&2; exit 64; }
name=$1
dir=$2
lock_file=${DLOCK_SOURCES_LOCK:-$root/scripts/sources.lock}
read -r _ pinned_version pinned_file pinned_sha < <(grep -E "^$name[[:space:]]" "$lock_file") ||
  { echo "fetch-source.sh: $name is not in $lock_file" >&2; exit 64; }
mkdir -p "$dir"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$dir/$pinned_file" && "$(sha_of "$dir/$pinned_file")" == "$pinned_sha" ]]; then
  echo "$dir/$pinned_file"
  exit 0
fi

# Only trixie's deb-src line is added, in its own file, and only that file's
# index is fetched: no binary package comes from trixie.
list=/etc/apt/sources.list.d/dlock-trixie-src.sources
# shellcheck source=release-lib.sh
. "$root/scripts/release-lib.sh"
printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
  "$(debian_mirror)" >"$list"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Another apt (a package install beside it) may hold the lists' lock for a while.
for attempt in $(seq 90); do
  apt-get update -qq -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 \
    2>"$scratch/update.err" >&2 && break
  grep -q 'Could not get lock' "$scratch/update.err" && ((attempt < 90)) || { cat "$scratch/update.err" >&2; exit 1; }
  sleep 2
done

# try VERSION: downloads that version's source package into a scratch
# directory and moves its upstream tarball into DIR; prints the tarball's name.
try() {
  rm -rf "${scratch:?}"/*
  (cd "$scratch" && apt-get source -qq --download-only "$name=$1" 2>&1 | grep -v 'Download is performed unsandboxed') >&2 || true
  local tarball
  tarball=$(cd "$scratch" && ls "$name"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n1) || return 1
  [[ -n "$tarball" ]] || return 1
  mv "$scratch/$tarball" "$dir/"
  echo "$tarball"
}

echo "Fetching $name $pinned_version's source ($pinned_file)" >&2
if file=$(try "$pinned_version") && [[ "$file" == "$pinned_file" ]]; then
  actual=$(sha_of "$dir/$file")
  if [[ "$actual" == "$pinned_sha" ]]; then
    echo "$dir/$file"
    exit 0
  fi
  rm -f "$dir/$file"
  echo "fetch-source.sh: $pinned_file has SHA-256 $actual, $lock_file pins $pinned_sha: not used" >&2
fi

tried=("$pinned_version")
for version in $(apt-cache showsrc "$name" 2>/dev/null | sed -n 's/^Version: //p' | sort -u -r -V); do
  [[ "$version" == "$pinned_version" ]] && continue
  tried+=("$version")
  echo "$name $pinned_version could not be fetched; trying $version, which the index lists" >&2
  if file=$(try "$version"); then
    echo "warning: using $name $version in place of the pinned $pinned_version; to pin it, write in" \
      "$lock_file: $name $version $file $(sha_of "$dir/$file")" >&2
    echo "$dir/$file"
    exit 0
  fi
done
cat >&2 <<EOF
fetch-source.sh: no source of $name could be fetched (tried ${tried[*]}).
Put $pinned_file (SHA-256 $pinned_sha) into $dir by hand,
or pin a version that 'apt-cache showsrc $name' lists in $lock_file.
EOF
exit 1
