#!/usr/bin/env bash
# Benchmarks the HTML export (issue 27): `docctl export --format html` of the bench project
# (25,000 tasks, no blobs, one version) against peers in the same run: a folder export of
# the same version (`--format dir`), `cp -r` of that folder, and Python's json load and
# dump of the document. Interleaved medians of RUNS runs, peak memory, ratios; then the
# site's page count and its largest page (the issue asks under 3 s and no page over 5 MB).
# Builds docctl in release mode; the bundle goes under bench/corpus/html/ (kept between runs).
# Usage: bench/html.sh [RUNS]   (default 7; results also go to bench/out/html.md)
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-7}"
source "$(dirname "$0")/prelude.sh"
dir="$corpus/html"
mkdir -p "$dir"
bundle="$dir/tasks-25000.dkproj"
if [[ ! -f "$bundle" ]]; then
    rm -rf "$dir/source" "$bundle.partial"
    python3 bench/make_corpus.py "$dir/source" --big-mib 0 --blobs 0 --tasks 25000
    "$docctl" import "$dir/source" -o "$bundle.partial" --author bench >/dev/null
    mv "$bundle.partial" "$bundle"
fi
rm -rf "$dir/folder" "$dir/site"
"$docctl" export "$bundle" --format dir -o "$dir/folder" >/dev/null

python3 - "$out/html-spec.json" "$docctl" "$dir" "$bundle" <<'PY'
import json, sys
out, docctl, d, bundle = sys.argv[1:]
def c(name, cmd, before=None):
    item = {"group": "export", "name": name, "cmd": cmd,
            "label": cmd.replace(docctl, "docctl").replace(d + "/", "")}
    if before: item["before"] = before
    return item
commands = [
    c("export --format html", f"{docctl} export {bundle} --format html -o {d}/site --force"),
    c("export --format html -o site.zip", f"{docctl} export {bundle} --format html -o {d}/site.zip --force"),
    c("export --format dir", f"{docctl} export {bundle} --format dir -o {d}/dir --force"),
    c("cp -r of the exported folder", f"rm -rf {d}/copy && cp -r {d}/folder {d}/copy"),
    c("python3 json load + dump", f"python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], \"w\"))' {d}/folder/document.json {d}/dump.json"),
]
ratios = [
    {"of": "export --format html", "to": "export --format dir"},
    {"of": "export --format html", "to": "cp -r of the exported folder"},
    {"of": "export --format html", "to": "python3 json load + dump"},
    {"of": "export --format html -o site.zip", "to": "export --format html"},
]
json.dump({"commands": commands, "ratios": ratios}, open(out, "w"), indent=1)
PY
echo "measuring ($runs runs each)..." >&2
{
    echo "Run: \`bench/html.sh $runs\` on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r), commit $(git rev-parse --short HEAD); warm cache; medians of $runs runs."
    echo
    python3 bench/measure.py "$out/html-spec.json" "$runs"
    python3 - "$dir/site" "$dir/folder/document.json" <<'PY'
import os, sys
site, document = sys.argv[1], sys.argv[2]
pages = []
for folder, _, names in os.walk(site):
    pages += [os.path.join(folder, n) for n in names if n.endswith(".html")]
largest = max(pages, key=os.path.getsize)
total = sum(os.path.getsize(p) for p in pages)
print()
print(f"The site: {len(pages)} pages, {total:,} bytes; the largest, {os.path.relpath(largest, site)}, "
      f"{os.path.getsize(largest):,} bytes; the document {os.path.getsize(document):,} bytes.")
PY
} | tee "$out/html.md"
