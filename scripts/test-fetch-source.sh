#!/usr/bin/env bash
# Checks scripts/fetch-source.sh against Debian's real index: every pin of
# scripts/sources.lock fetched into an empty directory and checked; then, on
# hiredis (small), a pin Debian no longer serves, or whose checksum is wrong,
# replaced by a version the index lists, with the line to pin (or, with no other
# version listed, refused); a source nobody serves refused with the file to place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() { DLOCK_SOURCES_LOCK="$work/sources.lock" "$root/scripts/fetch-source.sh" "$@"; }
fail() { echo "test-fetch-source.sh: $*" >&2; exit 1; }
grep -v '^#' "$root/scripts/sources.lock" >"$work/sources.lock"
while read -r name version file sha; do
  path=$(fetch "$name" "$work/pinned" </dev/null)
  [[ "$path" == "$work/pinned/$file" && "$(sha256sum "$path" | cut -d' ' -f1)" == "$sha" ]] ||
    fail "the pin of $name did not give $file with its checksum: $path"
  echo "pinned: $file fetched into an empty directory and checked"
done <"$work/sources.lock"

read -r _ version file sha < <(grep -E '^hiredis[[:space:]]' "$work/sources.lock")

echo "hiredis 0.0.1-1 hiredis_0.0.1.orig.tar.gz $sha" >"$work/sources.lock"
path=$(fetch hiredis "$work/gone" 2>"$work/gone.err") || fail "no fallback for a version Debian does not serve"
grep -q "in place of the pinned 0.0.1-1" "$work/gone.err" || fail "the fallback was not said: $(cat "$work/gone.err")"
[[ -f "$path" ]] || fail "the fallback gave no file"
echo "a pin Debian does not serve: fell back to $(basename "$path"), and said so"

echo "hiredis $version $file 0000000000000000000000000000000000000000000000000000000000000000" >"$work/sources.lock"
if path=$(fetch hiredis "$work/forged" 2>"$work/forged.err"); then
  [[ "$path" != "$work/forged/$file" ]] || fail "the file whose checksum did not match was used"
else
  [[ ! -e "$work/forged/$file" ]] || fail "the file whose checksum did not match was left in place"
fi
grep -q "has SHA-256 $sha" "$work/forged.err" || fail "the checksum mismatch was not said: $(cat "$work/forged.err")"
echo "a wrong checksum: the pinned file refused"

echo "dlock-no-such-source 1.0-1 dlock-no-such-source_1.0.orig.tar.gz $sha" >"$work/sources.lock"
if fetch dlock-no-such-source "$work/none" 2>"$work/none.err"; then fail "a source nobody serves was not refused"; fi
grep -q "Put dlock-no-such-source_1.0.orig.tar.gz (SHA-256 $sha) into $work/none by hand" "$work/none.err" ||
  fail "the refusal did not name the file to place: $(cat "$work/none.err")"
echo "a source nobody serves: refused, naming the file to place"
