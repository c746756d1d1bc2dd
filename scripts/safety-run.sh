#!/usr/bin/env bash
# The published safety run: every primitive (lock, fair lock, read-write lock,
# semaphore, leased permits, latch, MultiLock, RedLock) under every fault
# (holder kill -9 and SIGSTOP, CLIENT KILL storms, restarts with and without
# persistence, Sentinel and Cluster failovers with and without sync_replicas;
# on a ZooKeeper ensemble, holder kill -9 and SIGSTOP and the leader's kill -9;
# on PostgreSQL and MariaDB lock tables, holder kill -9 and SIGSTOP),
# judged by an independent checker over the sections the workers logged
# (tests/safety). See docs/reliability.md.
#
#   scripts/safety-run.sh --short|--long [--out DIR] [--faults a,b] [--primitives a,b]
#
# --short: a few hundred grants per primitive per fault (CI); --long: at least
# 10,000. The results replace the generated section of docs/reliability.md;
# with --out DIR they go to DIR/reliability.md instead (docs/ untouched), and
# the workers' logs to DIR/work. Exit status: 0 when no configuration claimed
# safe showed a violation (violations of the known-unsafe ones are flagged as
# expected), 1 when one did, 2 on bad arguments.
#
# DLOCK_SAFETY_RUN names a built dlock_safety_run (CTest passes it); without
# it the program is built in build/safety.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=""
out=""
passed=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --short | --long) mode=$1 ;;
    --out)
      [[ $# -ge 2 ]] || { echo "safety-run.sh: --out needs a directory" >&2; exit 2; }
      out=$2
      shift
      ;;
    --faults | --primitives)
      [[ $# -ge 2 ]] || { echo "safety-run.sh: $1 needs a comma-separated list" >&2; exit 2; }
      passed+=("$1" "$2")
      shift
      ;;
    *) echo "safety-run.sh: unknown argument '$1' (--short|--long [--out DIR] [--faults a,b] [--primitives a,b])" >&2; exit 2 ;;
  esac
  shift
done
[[ -n "$mode" ]] || { echo "safety-run.sh: --short or --long is required" >&2; exit 2; }

program=${DLOCK_SAFETY_RUN:-}
if [[ -z "$program" ]]; then
  cmake -S . -B build/safety -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLOCK_BUILD_TESTS=ON >/dev/null
  cmake --build build/safety --target dlock_safety_run dlock_test_worker -j "${DLOCK_JOBS:-2}" >/dev/null
  program=build/safety/tests/dlock_safety_run
fi

results=${out:-build/safety-run}
document=docs/reliability.md
[[ -z "$out" ]] || document_out="$out/reliability.md"
rm -rf "$results/work"
mkdir -p "$results/work"
generated="$results/generated.md"

status=0
"$program" "$mode" "${passed[@]}" --report "$generated" --work-dir "$results/work" \
  --command "scripts/safety-run.sh $mode${passed[*]:+ ${passed[*]}}" || status=$?
[[ $status -ne 2 && -s "$generated" ]] || exit "$status"

# The generated section sits between the markers; the rest of the page is hand-written.
destination=${document_out:-$document}
awk -v generated="$generated" '
  /<!-- safety-run:begin -->/ { print; while ((getline line < generated) > 0) print line; skipping = 1; next }
  /<!-- safety-run:end -->/ { skipping = 0 }
  !skipping { print }' "$document" >"$destination.tmp"
mv "$destination.tmp" "$destination"
echo "safety-run.sh: results in $destination (exit $status)"
exit "$status"
