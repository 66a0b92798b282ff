#!/usr/bin/env bash
# Rebuilds the sample bundles from the edits below, byte for byte: times come from
# SOURCE_DATE_EPOCH and the author is fixed, so every run gives the same files.
# Usage: SampleDocs/regenerate.sh [--check]
#   --check  rebuild into a scratch folder and compare with the committed files
# Uses $DOCCTL if set, else builds docctl (debug). SampleDocs/format-1, format-2 and
# ocfl-1 are never rebuilt.
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
unset DOCUMENTKIT_WRITE_SCHEMA
at() { SOURCE_DATE_EPOCH="$1" "$DOCCTL" "${@:2}" --author "Sample Author" >/dev/null; }
# `at1`/`at2` save as builds of Project schema 1.0.0 and 2.0.0 did: DOCUMENTKIT_WRITE_SCHEMA
# makes docctl check and encode with that schema's model and record it (README, "Schemas").
at1() { DOCUMENTKIT_WRITE_SCHEMA=1.0.0 at "$@"; }
at2() { DOCUMENTKIT_WRITE_SCHEMA=2.0.0 at "$@"; }

# small.dkproj: two versions, one task.
at 1767225600 new "$out/small.dkproj" --name "Reading list" -m "Start the reading list"
at 1767229200 set "$out/small.dkproj" 'tasks[+]' '{"title": "The Mythical Man-Month", "priority": "low"}' -m "Add a book"

# garden.dkproj: a thumbnail and several versions.
g="$out/garden.dkproj"
at 1767225600 new "$g" --name "Garden" -m "Plan the garden"
at 1767312000 set "$g" 'tasks[+]' '{"title": "Buy seeds", "priority": "high", "dueDate": "2026-03-01", "tags": ["shopping"]}' -m "First task"
at 1767398400 set "$g" 'tasks[+]' '{"title": "Dig the beds", "notes": "North side first"}' -m "Second task"
at 1767484800 attach "$g" "$here/sources/thumbnail.png" -m "Add a thumbnail"
at 1767571200 set "$g" 'tasks[0].status' done -m "Seeds bought"
at 1767657600 set "$g" 'tasks[+]' '{"title": "Plant tomatoes", "priority": "medium", "dueDate": "2026-05-15"}' -m "Third task"
at 1767744000 set "$g" 'tasks[1].status' inProgress -m "Digging"
at 1767830400 set "$g" summary "Vegetables for the summer" -m "Say what it is for"

# garden.tar.zst: the head of garden.dkproj, exported.
"$DOCCTL" export "$g" --format tar.zst -o "$out/garden.tar.zst" >/dev/null

# legacy-v1.dkproj: the garden as a 1.0.0 build kept it (format-1/legacy-v1.dkproj holds the bytes
# DocumentKit 0.1.0 wrote); every version records schema 1.0.0.
l1="$out/legacy-v1.dkproj"
at1 1767225600 new "$l1" --name "Garden" -m "Plan the garden"
at1 1767312000 set "$l1" 'tasks[+]' '{"title": "Buy seeds", "priority": "high", "dueDate": "2026-03-01"}' -m "First task"
at1 1767398400 set "$l1" 'tasks[+]' '{"title": "Dig the beds", "notes": "North side first"}' -m "Second task"
at1 1767484800 attach "$l1" "$here/sources/thumbnail.png" -m "Add a thumbnail"
at1 1767571200 set "$l1" 'tasks[0].isComplete' true -m "Seeds bought"
at1 1767657600 set "$l1" 'tasks[+]' '{"title": "Plant tomatoes", "priority": "medium", "dueDate": "2026-05-15"}' -m "Third task"

# legacy-v2.dkproj: started by a 1.0.0 build (versions 1-2), then edited by a 2.0.0 build,
# whose first save migrated it (versions 3-5 record schema 2.0.0).
l2="$out/legacy-v2.dkproj"
at1 1767225600 new "$l2" --name "Kitchen" -m "Plan the kitchen"
at1 1767312000 set "$l2" 'tasks[+]' '{"title": "Measure the room", "priority": "high", "isComplete": true}' -m "First task"
at2 1767398400 set "$l2" 'tasks[+]' '{"title": "Choose tiles", "tags": ["shopping", "floor"], "dueDate": "2026-04-01"}' -m "Second task"
at2 1767484800 set "$l2" summary "New floor and cupboards" -m "Say what it is for"
at2 1767571200 attach "$l2" "$here/sources/thumbnail.png" -m "Add a thumbnail"

# board.dkproj: a board of columns owning tasks, a task waiting for two others, a draft.
b="$out/board.dkproj"
at 1767225600 new "$b" --name "Website" -m "Plan the website"
for column in "To do" "Doing" "Done"; do
    at 1767229200 set "$b" 'columns[+]' "{\"name\": \"$column\"}" -m "Add the $column column"
done
# `get` prints a string as it is: these give the ids the edits above completed.
col() { "$DOCCTL" get "$b" "columns[$1].id"; }
task() { "$DOCCTL" get "$b" "tasks[$1].id"; }
at 1767312000 set "$b" 'tasks[+]' "{\"title\": \"Write the copy\", \"column\": \"$(col 0)\"}" -m "First task"
at 1767398400 set "$b" 'tasks[+]' "{\"title\": \"Design the pages\", \"column\": \"$(col 1)\", \"status\": \"inProgress\"}" -m "Second task"
at 1767484800 set "$b" 'tasks[+]' "{\"title\": \"Buy the domain\", \"column\": \"$(col 2)\", \"status\": \"done\"}" -m "Third task"
at 1767571200 set "$b" 'tasks[+]' "{\"title\": \"Publish\", \"column\": \"$(col 0)\", \"blockedBy\": [\"$(task 0)\", \"$(task 1)\"]}" -m "Publishing waits for the copy and the design"
at 1767657600 set "$b" 'drafts[+]' '{"content": "We are live: the new website is up."}' -m "Draft the launch post"

names=(small.dkproj garden.dkproj garden.tar.zst legacy-v1.dkproj legacy-v2.dkproj board.dkproj)
if [[ "${1:-}" == "--check" ]]; then
    status=0
    # The format-1 bundles are fixtures DocumentKit 0.1.0 wrote: they must never change.
    (cd "$here/format-1" && sha256sum --quiet -c SHA256SUMS) || { echo "differs: SampleDocs/format-1" >&2; status=1; }
    # So are the format-2 bundles, as DocumentKit 0.3.0 wrote them (issue 25 froze them).
    (cd "$here/format-2" && sha256sum --quiet -c SHA256SUMS) || { echo "differs: SampleDocs/format-2" >&2; status=1; }
    # And the remote in the first OCFL layout, one OCFL version per bundle version.
    (cd "$here/ocfl-1" && sha256sum --quiet -c SHA256SUMS) || { echo "differs: SampleDocs/ocfl-1" >&2; status=1; }
    for name in "${names[@]}"; do
        cmp -s "$out/$name" "$here/$name" || { echo "differs: SampleDocs/$name" >&2; status=1; }
    done
    exit $status
fi
for name in "${names[@]}"; do cp "$out/$name" "$here/"; done
echo "regenerated SampleDocs/$(IFS=,; echo "${names[*]}" | sed 's/,/, /g')"
