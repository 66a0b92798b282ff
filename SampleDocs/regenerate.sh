#!/usr/bin/env bash
# Rebuilds the sample bundles from the edits below, byte for byte: times come from
# SOURCE_DATE_EPOCH and the author is fixed, so every run gives the same files.
# Usage: SampleDocs/regenerate.sh [--check]
#   --check  rebuild into a scratch folder and compare with the committed files
# Uses $DOCCTL if set, else builds docctl (debug).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ "${1:-}" == "--help" ]]; then
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
if [[ -z "${DOCCTL:-}" ]]; then
    (cd "$here/.." && swift build --product docctl >/dev/null)
    DOCCTL="$(cd "$here/.." && swift build --show-bin-path)/docctl"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export TZ=UTC LC_ALL=C.UTF-8
at() { SOURCE_DATE_EPOCH="$1" "$DOCCTL" "${@:2}" --author "Sample Author" >/dev/null; }

# small.dkproj: two versions, one task.
at 1767225600 new "$out/small.dkproj" --name "Reading list" -m "Start the reading list"
at 1767229200 set "$out/small.dkproj" 'tasks[+]' '{"title": "The Mythical Man-Month", "priority": "low"}' -m "Add a book"

# garden.dkproj: a thumbnail and several versions.
g="$out/garden.dkproj"
at 1767225600 new "$g" --name "Garden" -m "Plan the garden"
at 1767312000 set "$g" 'tasks[+]' '{"title": "Buy seeds", "priority": "high", "dueDate": "2026-03-01"}' -m "First task"
at 1767398400 set "$g" 'tasks[+]' '{"title": "Dig the beds", "notes": "North side first"}' -m "Second task"
at 1767484800 attach "$g" "$here/sources/thumbnail.png" -m "Add a thumbnail"
at 1767571200 set "$g" 'tasks[0].isComplete' true -m "Seeds bought"
at 1767657600 set "$g" 'tasks[+]' '{"title": "Plant tomatoes", "priority": "medium", "dueDate": "2026-05-15"}' -m "Third task"

# garden.tar.zst: the head of garden.dkproj, exported.
"$DOCCTL" export "$g" --format tar.zst -o "$out/garden.tar.zst" >/dev/null

if [[ "${1:-}" == "--check" ]]; then
    status=0
    for name in small.dkproj garden.dkproj garden.tar.zst; do
        cmp -s "$out/$name" "$here/$name" || { echo "differs: SampleDocs/$name" >&2; status=1; }
    done
    exit $status
fi
cp "$out/small.dkproj" "$out/garden.dkproj" "$out/garden.tar.zst" "$here/"
echo "regenerated SampleDocs/small.dkproj, garden.dkproj, garden.tar.zst"
