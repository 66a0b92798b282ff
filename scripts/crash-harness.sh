#!/usr/bin/env bash
# Kills docctl (SIGKILL) at random moments of saves, attaches, prunes, migrations,
# restores and exports, and checks after each kill that the bundle validates (--deep) and
# holds the old or the new state, that an export is complete or absent, and that what a
# killed run left is gone after the next successful one. Prints the trials, the kills that
# landed mid-save and the failures; exits non-zero on any failure.
# Usage: scripts/crash-harness.sh [--trials N] [--seed S]   (default: 400 trials, random seed)
set -euo pipefail
trials=400
seed=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --help|-h) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --trials) trials="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "error: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
[[ "$trials" =~ ^[0-9]+$ ]] || { echo "error: --trials takes a number" >&2; exit 64; }
[[ -z "$seed" || "$seed" =~ ^[0-9]+$ ]] || { echo "error: --seed takes a number" >&2; exit 64; }
cd "$(dirname "$0")/.."
swift build --build-tests 2>&1 | grep -E "warning:|error:|Compiling|Build" | tail -1
export DOCUMENTKIT_CRASH_TRIALS="$trials"
[[ -n "$seed" ]] && export DOCUMENTKIT_CRASH_SEED="$seed"
start=$(date +%s)
set +e
swift test --skip-build --filter 'CrashSafetyTests' 2>&1 | grep -E '^crash harness|✘|passed after|failed after|error:'
status=${PIPESTATUS[0]}
set -e
echo "elapsed: $(( $(date +%s) - start )) s"
exit "$status"
