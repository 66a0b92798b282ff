#!/usr/bin/env bash
# Measures how a folder remote grows with its history (issue 25): a project of TASKS tasks
# saved SAVES times (one-title saves, made by dkbench in one process), pushed after the
# first SAVES-PUSHES saves and then after each of the last PUSHES (a docctl set and a docctl
# push each); then the bundle's size, the remote's (every file's bytes), their ratio, and
# the bytes the last push sent and wrote. Then a one-version push to a remote holding
# BIG versions (pushed at once), its bytes sent and the inventory it wrote.
# Usage: bench/remote_growth.sh [TASKS] [SAVES] [PUSHES] [BIG]   (default 2000 2000 300 10000)
#        Results also go to bench/out/remote-growth.md.
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
tasks="${1:-2000}"
saves="${2:-2000}"
pushes="${3:-300}"
big="${4:-10000}"
source "$(dirname "$0")/prelude.sh"
work="$corpus/remote-growth"
rm -rf "$work" && mkdir -p "$work"
swift build -c release --static-swift-stdlib --product dkbench 2>&1 | tail -1 >&2
dkbench="$(swift build -c release --static-swift-stdlib --show-bin-path)/dkbench"
bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

python3 bench/make_corpus.py "$work/source" --big-mib 0 --blobs 0 --tasks "$tasks" >/dev/null
"$docctl" import "$work/source" -o "$work/p.dkproj" --author bench >/dev/null
echo "making $((saves - pushes)) versions of a $tasks-task project..." >&2
"$dkbench" history "$work/p.dkproj" "$((saves - pushes))" "$work/saves.tsv" "$tasks"
"$docctl" push "$work/p.dkproj" "$work/remote" >/dev/null
echo "$pushes saves, each pushed..." >&2
for ((i = 1; i <= pushes; i++)); do
    "$docctl" set "$work/p.dkproj" "tasks[$((i % tasks))].title" "\"Pushed $i\"" -m "Push $i" >/dev/null
    last=$("$docctl" push "$work/p.dkproj" "$work/remote" --json)
done
bundle=$(stat -c %s "$work/p.dkproj")
remote=$(bytes "$work/remote")
inventory=$(find "$work/remote" -name inventory.json -printf '%s\n' | sort -n | tail -1)
sent=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["bytesSent"])' "$last")

# A one-version push onto a remote holding BIG versions, pushed at once (0: skipped).
one_sent=0; after=0; before=0; big_inventory=0
[[ "$big" -gt 0 ]] && {
"$docctl" import "$work/source" -o "$work/big.dkproj" --author bench >/dev/null
"$dkbench" history "$work/big.dkproj" "$big" "$work/big-saves.tsv" "$tasks"
"$docctl" push "$work/big.dkproj" "$work/big-remote" >/dev/null
before=$(bytes "$work/big-remote")
"$docctl" set "$work/big.dkproj" "tasks[1].title" '"One more"' -m "One more" >/dev/null
one=$("$docctl" push "$work/big.dkproj" "$work/big-remote" --json)
after=$(bytes "$work/big-remote")
one_sent=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["bytesSent"])' "$one")
big_inventory=$(find "$work/big-remote" -name inventory.json -printf '%s\n' | sort -n | tail -1)
}

{
    echo "# Remote growth ($(git rev-parse --short HEAD), $(date -u +%Y-%m-%d))"
    echo
    echo "A $tasks-task project saved $saves times, pushed to a folder remote after save $((saves - pushes)) and after each of the last $pushes."
    echo
    echo "| what | bytes |"
    echo "|---|---|"
    echo "| bundle | $bundle |"
    echo "| remote | $remote |"
    echo "| remote / bundle | $(python3 -c "print(f'{$remote / $bundle:.2f}x')") |"
    echo "| largest inventory.json | $inventory |"
    echo "| last push sent | $sent |"
    echo
    echo "A one-version push onto a remote holding $big versions (pushed at once): sent $one_sent bytes; the remote grew by $((after - before)) bytes (its inventory.json: $big_inventory bytes)."
} | tee "$out/remote-growth.md"
