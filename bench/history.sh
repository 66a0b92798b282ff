#!/usr/bin/env bash
# Benchmarks what a long history costs (issue 3): a bundle with VERSIONS versions of a
# 5 MB document (25,000 tasks), each save changing one task's title, against a bundle of
# one version with the same head content. Interleaved medians of RUNS runs, peak memory,
# ratios: save and head-open time, a pull of one new version (from a copy one save
# ahead), size, and the history commands. Builds docctl in
# release mode; the bundles go under bench/corpus/history/ (kept between runs).
# Usage: bench/history.sh [RUNS] [VERSIONS]   (default 7 and 1000; results also go to
#        bench/out/history-f3.md). Both bundles are in format 3 (FORMAT.md §12; bundles
#        long-VERSIONS-f3.dkproj and one-f3.dkproj); FORMAT=2 makes them in format 2.
#        The long bundle's saves run in one process (dkbench history), timed each.
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-7}"
versions="${2:-1000}"
source "$(dirname "$0")/prelude.sh"
dir="$corpus/history"
mkdir -p "$dir"
format="${FORMAT:-3}"
suffix=$([[ "$format" == 3 ]] && echo "-f3" || echo "")
long="$dir/long-$versions$suffix.dkproj"
one="$dir/one$suffix.dkproj"

if [[ ! -f "$long" ]]; then
    rm -rf "$dir/source" "$dir/saves-$versions$suffix.tsv" "$long.partial"
    python3 bench/make_corpus.py "$dir/source" --big-mib 0 --blobs 0 --tasks 25000
    "$docctl" import "$dir/source" -o "$long.partial" --author bench --format-version "$format" >/dev/null
    echo "making $versions versions (one-title saves, in one dkbench process)..." >&2
    swift build -c release --static-swift-stdlib --product dkbench 2>&1 | tail -1 >&2
    # Each save renames one task, spread over the whole document; the saves are those a
    # docctl set makes, without a process each.
    "$(swift build -c release --static-swift-stdlib --show-bin-path)/dkbench" history "$long.partial" "$versions" "$dir/saves-$versions$suffix.tsv"
    mv "$long.partial" "$long"
fi
# The same head content as a single version: export the head, import it.
rm -rf "$dir/head" "$one"
"$docctl" export "$long" --format dir -o "$dir/head" >/dev/null
"$docctl" import "$dir/head" -o "$one" --author bench --format-version "$format" >/dev/null
cmp <("$docctl" cat "$long") <("$docctl" cat "$one")
# Copies one version ahead of each bundle, for a pull of one new version (a fast-forward).
task='tasks[id=00000007-0000-4000-8000-000000000007].title'
# The first lands where 16 divides the place (at 10,000 and 100,000 versions), whose
# document is a delta against the one 16 places back (FORMAT.md §12.3); the second, a
# copy one more version ahead, one of the 15 in 16 against the head's document.
for name in one long; do
    cp "${!name}" "$dir/ahead-$name$suffix.dkproj"
    "$docctl" set "$dir/ahead-$name$suffix.dkproj" "$task" "Pulled" >/dev/null
    cp "$dir/ahead-$name$suffix.dkproj" "$dir/next-$name$suffix.dkproj"
    "$docctl" set "$dir/next-$name$suffix.dkproj" "$task" "Pulled again" >/dev/null
done
# The quick check: --deep checks every version's document, minutes a thousand versions of
# this 7.5 MB document (issue 25 owns making it linear in the bytes it reads).
"$docctl" validate "$long" >&2

python3 - "$out/history-spec$suffix.json" "$docctl" "$dir" "$long" "$versions" "$one" "$suffix" <<'PY'
import json, sys
out, docctl, d, long, versions, one, suffix = sys.argv[1:]
def c(group, name, cmd, before=None):
    item = {"group": group, "name": name, "cmd": cmd,
            "label": cmd.replace(docctl, "docctl").replace(d + "/", "")}
    if before: item["before"] = before
    return item
task = "tasks[id=00000007-0000-4000-8000-000000000007].title"
# The version whose document has the longest delta chain (FORMAT.md §12.3): counting from
# the first place (n = place - 1), 15 links per base-16 digit of n, so the n below the
# history's length with the largest sum of hexadecimal digits (4095 = 0xFFF: 45 links).
def links(n):
    return sum(int(digit, 16) for digit in f"{n:x}")
longest = 1 + max(range(int(versions)), key=lambda n: (links(n), n))
commands = [
    c("save a one-field edit", "set 1 version", f"{docctl} set {d}/e1.dkproj '{task}' Edited",
      before=f"cp {one} {d}/e1.dkproj && sync {d}/e1.dkproj"),
    c("save a one-field edit", f"set {versions} versions", f"{docctl} set {d}/eN.dkproj '{task}' Edited",
      before=f"cp {long} {d}/eN.dkproj && sync {d}/eN.dkproj"),
    c("open the head", "cat 1 version", f"{docctl} cat {one}"),
    c("open the head", f"cat {versions} versions", f"{docctl} cat {long}"),
    c("open the head", "get 1 version", f"{docctl} get {one} '{task}'"),
    c("open the head", f"get {versions} versions", f"{docctl} get {long} '{task}'"),
    c("pull one new version", "pull 1 version", f"{docctl} pull {d}/b1.dkproj {d}/ahead-one{suffix}.dkproj",
      before=f"cp {one} {d}/b1.dkproj && sync {d}/b1.dkproj"),
    c("pull one new version", f"pull {versions} versions", f"{docctl} pull {d}/bN.dkproj {d}/ahead-long{suffix}.dkproj",
      before=f"cp {long} {d}/bN.dkproj && sync {d}/bN.dkproj"),
    c("read the history's head", "log -n 10 1 version", f"{docctl} log {one} -n 10"),
    c("read the history's head", f"log -n 10 {versions} versions", f"{docctl} log {long} -n 10"),
    c("read the history's head", "info 1 version", f"{docctl} info {one}"),
    c("read the history's head", f"info {versions} versions", f"{docctl} info {long}"),
    c("read the history's head", "show head 1 version", f"{docctl} show {one} head"),
    c("read the history's head", f"show head {versions} versions", f"{docctl} show {long} head"),
    c("check", "validate 1 version", f"{docctl} validate {one}"),
    c("check", f"validate {versions} versions", f"{docctl} validate {long}"),
    c("pull the next version", "pull next 1 version", f"{docctl} pull {d}/c1.dkproj {d}/next-one{suffix}.dkproj",
      before=f"cp {d}/ahead-one{suffix}.dkproj {d}/c1.dkproj && sync {d}/c1.dkproj"),
    c("pull the next version", f"pull next {versions} versions", f"{docctl} pull {d}/cN.dkproj {d}/next-long{suffix}.dkproj",
      before=f"cp {d}/ahead-long{suffix}.dkproj {d}/cN.dkproj && sync {d}/cN.dkproj"),
    c("history commands", "log", f"{docctl} log {long}"),
    c("history commands", "diff head~1 head", f"{docctl} diff {long} head~1 head || test $? = 1"),
    c("history commands", "diff 1 head", f"{docctl} diff {long} 1 head || test $? = 1"),
    c("history commands", "cat --version 1", f"{docctl} cat {long} --version 1"),
    c("history commands", f"cat --version {longest}", f"{docctl} cat {long} --version {longest}"),
    c("history commands", "restore 1", f"{docctl} restore {d}/r.dkproj 1", before=f"cp {long} {d}/r.dkproj"),
    c("history commands", "prune --keep 100", f"{docctl} prune {d}/p.dkproj --keep 100", before=f"cp {long} {d}/p.dkproj"),
]
ratios = [
    {"of": f"set {versions} versions", "to": "set 1 version", "target": "within 1.2x", "max": 1.2},
    {"of": f"cat {versions} versions", "to": "cat 1 version", "target": "within 1.2x", "max": 1.2},
    {"of": f"get {versions} versions", "to": "get 1 version", "target": "within 1.2x", "max": 1.2},
    {"of": f"pull {versions} versions", "to": "pull 1 version", "target": "within 1.2x", "max": 1.2},
    {"of": f"pull next {versions} versions", "to": "pull next 1 version", "target": "within 1.2x", "max": 1.2},
    {"of": f"log -n 10 {versions} versions", "to": "log -n 10 1 version", "target": "within 1.1x", "max": 1.1},
    {"of": f"info {versions} versions", "to": "info 1 version", "target": "within 1.1x", "max": 1.1},
    {"of": f"show head {versions} versions", "to": "show head 1 version", "target": "within 1.1x", "max": 1.1},
    {"of": f"cat --version {longest}", "to": f"cat {versions} versions", "target": "within 3x", "max": 3},
]
json.dump({"commands": commands, "ratios": ratios}, open(out, "w"), indent=1)
PY
echo "measuring ($runs runs each)..." >&2
{
    echo "Run: \`FORMAT=$format bench/history.sh $runs $versions\` on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r); warm cache; medians of $runs runs."
    echo
    python3 bench/measure.py "$out/history-spec$suffix.json" "$runs"
    python3 - "$dir" "$long" "$versions" "$one" "$dir/saves-$versions$suffix.tsv" "$docctl" <<'PY'
import os, statistics, subprocess, sys
d, long, versions = sys.argv[1], sys.argv[2], int(sys.argv[3])
one = os.path.getsize(sys.argv[4])
size = os.path.getsize(long)
# The bytes the saves changed: each save's new title, compressed together with zstd.
titles = "".join(f"Renamed in save {i}" for i in range(1, versions)).encode()
changed = len(subprocess.run(["zstd", "-3", "-c"], input=titles, capture_output=True, check=True).stdout)
# Issue 25: within 1.25x of one version plus the changed bytes compressed. The file holds
# one superseded document's slot and superseded bytes below a third (FORMAT.md §12.4);
# `pack` writes the live bytes alone, which the line after compares too.
limit = 1.25 * one + changed
packed = os.path.join(d, "packed.dkproj")
if os.path.exists(packed):
    os.remove(packed)
subprocess.run([sys.argv[6], "pack", long, "-o", packed], check=True, capture_output=True)
live = os.path.getsize(packed)
os.remove(packed)
print(f"| size | bytes |\n|---|---|")
print(f"| one version | {one:,} |\n| {versions} versions | {size:,} |\n| the same, packed (its live bytes) | {live:,} |")
print(f"| changed bytes (titles, zstd) | {changed:,} |\n| limit: 1.25 x one version + changed | {limit:,.0f} |")
print()
for name, value in (("the file", size), ("packed", live)):
    verdict = "met" if value < limit else "**missed**"
    print(f"{versions} versions, {name} / one version: {value / one:.2f}x; against the limit: {value / limit:.2f} ({verdict}).")
# A full log streams: the time to its first line, medians of 7.
import time
firsts = []
for _ in range(7):
    start = time.perf_counter()
    log = subprocess.Popen([sys.argv[6], "log", long], stdout=subprocess.PIPE)
    log.stdout.readline()
    firsts.append(time.perf_counter() - start)
    log.kill(); log.wait()
print(f"A full `log` printed its first line after {statistics.median(firsts) * 1000:.1f} ms (target 50 ms).")
print()
# A bundle copied from a partial one (a long history still being made) has no times.
saves = [float(line.split()[1]) for line in open(sys.argv[5])] if os.path.exists(sys.argv[5]) else []
if len(saves) >= 40:
    first, last = statistics.median(saves[:20]), statistics.median(saves[-20:])
    print(f"While the history grew: median save of saves 1-20 {first:.3f} s, of the last 20 {last:.3f} s ({last / first:.2f}x).")
PY
} | tee "$out/history$suffix.md"
