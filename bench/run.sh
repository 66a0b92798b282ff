#!/usr/bin/env bash
# Benchmarks docctl against its peers (bsdtar, unzip, sha256sum, cp) on the same bytes,
# in one run: median wall time of RUNS runs, peak memory, and ratios. Builds docctl in
# release mode; makes the corpus (about 1.3 GB on disk) under bench/corpus/ once.
# Usage: bench/run.sh [RUNS]   (default 5; results also go to bench/out/results.md)
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh
swift build -c release --product docctl 2>&1 | tail -1
docctl="$(swift build -c release --show-bin-path)/docctl"
corpus="$root/bench/corpus"
out="$root/bench/out"
mkdir -p "$out"
if [[ ! -f "$corpus/source/document.json" ]]; then
    rm -rf "$corpus"
    python3 bench/make_corpus.py "$corpus/source"
fi
export SOURCE_DATE_EPOCH=1767225600 TZ=UTC
work="$corpus/work"
rm -rf "$work" && mkdir -p "$work"
"$docctl" import "$corpus/source" -o "$work/big.dkproj" --author bench >/dev/null
python3 bench/make_corpus.py "$work/small-source" --big-mib 0 --blobs 0 --tasks 25000
"$docctl" import "$work/small-source" -o "$work/small.dkproj" --author bench >/dev/null
ls -l "$work/big.dkproj" "$work/small.dkproj" >&2

B="$work/big.dkproj" S="$work/small.dkproj" W="$work"
cat > "$out/spec.json" <<JSON
[
 {"group": "read head document", "name": "bsdtar -xOf big document.json", "cmd": "bsdtar -xOf $B document.json"},
 {"group": "read head document", "name": "unzip -p big document.json", "cmd": "unzip -p $B document.json"},
 {"group": "read head document", "name": "docctl cat big", "cmd": "$docctl cat $B", "peer": "bsdtar -xOf big document.json"},
 {"group": "read head document", "name": "docctl cat small", "cmd": "$docctl cat $S"},
 {"group": "read head document", "name": "docctl cat big (vs small)", "cmd": "$docctl cat $B", "peer": "docctl cat small"},
 {"group": "create", "name": "bsdtar zip store", "cmd": "rm -f $W/peer.zip && bsdtar --format zip --options zip:compression=store -cf $W/peer.zip -C $corpus/source ."},
 {"group": "create", "name": "docctl import", "cmd": "rm -f $W/new.dkproj && $docctl import $corpus/source -o $W/new.dkproj", "peer": "bsdtar zip store"},
 {"group": "save one-field edit", "name": "cp big (floor)", "cmd": "cp $B $W/copy.dkproj"},
 {"group": "save one-field edit", "name": "docctl set big", "before": "cp $B $W/edit.dkproj", "cmd": "$docctl set $W/edit.dkproj name Edited", "peer": "bsdtar zip store"},
 {"group": "validate", "name": "sha256sum corpus files", "cmd": "find $corpus/source -type f -print0 | xargs -0 sha256sum"},
 {"group": "validate", "name": "bsdtar -xOf big (all bytes)", "cmd": "bsdtar -xOf $B"},
 {"group": "validate", "name": "docctl validate --deep big", "cmd": "$docctl validate --deep $B", "peer": "sha256sum corpus files"},
 {"group": "validate", "name": "docctl validate big", "cmd": "$docctl validate $B"},
 {"group": "memory", "name": "docctl info big", "cmd": "$docctl info $B"},
 {"group": "memory", "name": "docctl log big", "cmd": "$docctl log $B"},
 {"group": "memory", "name": "docctl get big", "cmd": "$docctl get $B 'tasks[24999].title'"},
 {"group": "memory", "name": "docctl extract big thumbnail", "cmd": "$docctl extract $B thumbnail -o $W/thumb.bin --force"},
 {"group": "memory", "name": "docctl export big tar.zst", "cmd": "$docctl export $B --format tar.zst -o $W/big.tar.zst --force"},
 {"group": "memory", "name": "docctl export big dir", "cmd": "rm -rf $W/big.dir && $docctl export $B --format dir -o $W/big.dir"}
]
JSON
echo "measuring ($runs runs each)..." >&2
{
    echo "Run: \`bench/run.sh $runs\` on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r); warm cache; medians of $runs runs."
    echo
    python3 bench/measure.py "$out/spec.json" "$runs"
} | tee "$out/results.md"
