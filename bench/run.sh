#!/usr/bin/env bash
# Benchmarks docctl against its peers (bsdtar, unzip, sha256sum, cp) on the same bytes,
# in one run: median wall time of RUNS runs, peak memory, and ratios. Builds docctl in
# release mode; makes the corpus (about 1.3 GB on disk) under bench/corpus/ once.
# Usage: bench/run.sh [RUNS]   (default 5; results also go to bench/out/results.md)
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-5}"
source "$(dirname "$0")/prelude.sh"
bench/big_corpus.sh "$corpus"
work="$corpus/work"
rm -rf "$work" && mkdir -p "$work"
"$docctl" import "$corpus/source" -o "$work/big.dkproj" --author bench >/dev/null
python3 bench/make_corpus.py "$work/small-source" --big-mib 0 --blobs 0 --tasks 25000
"$docctl" import "$work/small-source" -o "$work/small.dkproj" --author bench >/dev/null
# A short history on the big bundle, for log, diff, restore and prune.
cp "$work/big.dkproj" "$work/hist.dkproj"
"$docctl" set "$work/hist.dkproj" name "Renamed" >/dev/null
"$docctl" set "$work/hist.dkproj" 'tasks[24999].title' "Last task, renamed" >/dev/null
# A 512 MiB blob no bundle holds yet, to attach from a file and from a pipe.
head -c $((512 << 20)) /dev/urandom > "$work/new-blob.bin"
ls -l "$work/big.dkproj" "$work/small.dkproj" "$work/hist.dkproj" >&2

B="$work/big.dkproj" S="$work/small.dkproj" W="$work"
# Each command: a name for ratios, the command line, and a label with the paths shortened.
python3 - "$out/spec.json" "$docctl" "$B" "$S" "$W" "$corpus/source" <<'PY'
import json, sys
out, docctl, big, small, work, source = sys.argv[1:]
largest = f"{work}/new-blob.bin"
def c(group, name, cmd, before=None):
    item = {"group": group, "name": name, "cmd": cmd,
            "label": cmd.replace(docctl, "docctl").replace(work + "/", "").replace(source, "corpus")}
    if before: item["before"] = before
    return item
commands = [
    c("read head document", "bsdtar -xOf big", f"bsdtar -xOf {big} document.json"),
    c("read head document", "unzip -p big", f"unzip -p {big} document.json"),
    c("read head document", "docctl cat big", f"{docctl} cat {big}"),
    c("read head document", "docctl cat small", f"{docctl} cat {small}"),
    c("create", "bsdtar zip store", f"rm -f {work}/peer.zip && bsdtar --format zip --options zip:compression=store -cf {work}/peer.zip -C {source} ."),
    c("create", "docctl import", f"rm -f {work}/new.dkproj && {docctl} import {source} -o {work}/new.dkproj"),
    c("save one-field edit", "cp big", f"cp {big} {work}/copy.dkproj"),
    # `sync` after the copy: the save's fsync must not pay for flushing cp's dirty pages.
    c("save one-field edit", "docctl set big", f"{docctl} set {work}/edit.dkproj name Edited", before=f"cp {big} {work}/edit.dkproj && sync {work}/edit.dkproj"),
    c("validate", "sha256sum", f"find {source} -type f -print0 | xargs -0 sha256sum"),
    c("validate", "bsdtar -xOf all", f"bsdtar -xOf {big}"),
    c("validate", "docctl validate --deep big", f"{docctl} validate --deep {big}"),
    c("validate", "docctl validate big", f"{docctl} validate {big}"),
    c("other commands", "docctl info big", f"{docctl} info {big}"),
    c("other commands", "docctl log big", f"{docctl} log {work}/hist.dkproj"),
    c("other commands", "docctl diff big", f"{docctl} diff {work}/hist.dkproj 1 head || test $? = 1"),
    c("other commands", "docctl restore big", f"{docctl} restore {work}/r.dkproj 1", before=f"cp {work}/hist.dkproj {work}/r.dkproj && sync {work}/r.dkproj"),
    c("other commands", "docctl prune big", f"{docctl} prune {work}/p.dkproj --keep 1", before=f"cp {work}/hist.dkproj {work}/p.dkproj && sync {work}/p.dkproj"),
    c("other commands", "docctl get big", f"{docctl} get {big} 'tasks[24999].title'"),
    c("other commands", "docctl extract big", f"{docctl} extract {big} thumbnail -o {work}/thumb.bin --force"),
    c("other commands", "docctl export tar.zst", f"{docctl} export {big} --format tar.zst -o {work}/big.tar.zst --force"),
    c("other commands", "docctl export dir", f"rm -rf {work}/big.dir && {docctl} export {big} --format dir -o {work}/big.dir"),
    # Standard input and output: the same work through pipes.
    c("pipes", "bsdtar zip to a pipe", f"bsdtar --format zip --options zip:compression=store -cf - -C {source} . | cat > /dev/null"),
    c("pipes", "docctl export zip to a pipe", f"{docctl} export {big} --format zip -o - | cat > /dev/null"),
    c("pipes", "docctl export zip to a file", f"{docctl} export {big} --format zip -o {work}/big.zip --force"),
    c("pipes", "docctl attach file", f"{docctl} attach {work}/a.dkproj {largest} --name big.bin",
      before=f"cp {big} {work}/a.dkproj && sync {work}/a.dkproj"),
    c("pipes", "docctl attach - (a pipe)", f"cat {largest} | {docctl} attach {work}/a.dkproj - --name big.bin",
      before=f"cp {big} {work}/a.dkproj && sync {work}/a.dkproj"),
]
ratios = [
    {"of": "docctl cat big", "to": "bsdtar -xOf big", "target": "within 2x", "max": 2.0},
    {"of": "docctl cat big", "to": "docctl cat small", "target": "within 1.3x", "max": 1.3},
    {"of": "docctl validate --deep big", "to": "sha256sum", "target": "under 1x", "max": 1.0},
    {"of": "docctl import", "to": "bsdtar zip store", "target": ""},
    {"of": "docctl set big", "to": "bsdtar zip store", "target": "at most 1x", "max": 1.0},
    {"of": "docctl set big", "to": "cp big", "target": ""},
    # docctl checks every byte against its digest as it exports; bsdtar reads files unchecked.
    {"of": "docctl export zip to a pipe", "to": "bsdtar zip to a pipe", "target": ""},
    {"of": "docctl export zip to a pipe", "to": "docctl export zip to a file", "target": "at most 1.1x", "max": 1.1},
    {"of": "docctl attach - (a pipe)", "to": "docctl attach file", "target": "within 1.5x", "max": 1.5},
]
json.dump({"commands": commands, "ratios": ratios}, open(out, "w"), indent=1)
PY
echo "measuring ($runs runs each)..." >&2
{
    echo "Run: \`bench/run.sh $runs\` on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r); warm cache; medians of $runs runs."
    echo
    python3 bench/measure.py "$out/spec.json" "$runs"
} | tee "$out/results.md"
