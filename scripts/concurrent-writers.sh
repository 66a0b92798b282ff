#!/usr/bin/env bash
# Runs WRITERS docctl processes at once, each making EDITS edits (`docctl set`) of its own
# task in one bundle, while a reader reads it: checks that every edit lands in its own
# version, in order, that none is lost and none fails (writers wait for the lock as long as
# it takes), that every read succeeds, and that the bundle validates. Prints the time taken.
# Usage: scripts/concurrent-writers.sh [--writers W] [--edits N]   (default: 4 writers x 100 edits)
set -euo pipefail
writers=4
edits=100
while [[ $# -gt 0 ]]; do
    case "$1" in
        --help|-h) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --writers) writers="$2"; shift 2 ;;
        --edits) edits="$2"; shift 2 ;;
        *) echo "error: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
[[ "$writers" =~ ^[1-9][0-9]*$ && "$edits" =~ ^[1-9][0-9]*$ ]] || { echo "error: --writers and --edits take positive numbers" >&2; exit 64; }
cd "$(dirname "$0")/.."
swift build --build-tests 2>&1 | grep -E "warning:|error:|Compiling|Build" | tail -1
export DOCUMENTKIT_CONCURRENT_WRITERS="$writers" DOCUMENTKIT_CONCURRENT_EDITS="$edits"
set +e
swift test --skip-build --filter 'ConcurrentWritersTests/writersEditingAtOnceAllLandEachInItsOwnVersion' 2>&1 \
    | grep -E '^concurrent writers|✘|passed after|failed after|error:'
status=${PIPESTATUS[0]}
set -e
exit "$status"
