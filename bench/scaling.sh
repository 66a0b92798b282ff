#!/usr/bin/env bash
# Times every docctl command at 2,500, 5,000, 10,000, 20,000 and 40,000 tasks and prints
# the growth factor per doubling (2.0 is linear, 4.0 quadratic) and the ratio to Python's
# json.load + json.dumps of the same document; then import, edits and reads at 100,000
# tasks with their peak memory. Builds docctl in release mode; works in bench/out/scaling.
# Usage: bench/scaling.sh [RUNS] [SIZES...]   (default 3 runs; results in bench/out/scaling.md)
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-3}"
shift || true
sizes=("$@")
((${#sizes[@]})) || sizes=(2500 5000 10000 20000 40000)
source "$(dirname "$0")/prelude.sh"
{
    echo "Run: \`bench/scaling.sh $runs ${sizes[*]}\` at $(git rev-parse --short HEAD) on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r); warm cache; medians of $runs runs."
    echo
    python3 bench/scaling.py "$docctl" "$root/bench/out/scaling" "$runs" "${sizes[@]}" --large 100000
} | tee bench/out/scaling.md
