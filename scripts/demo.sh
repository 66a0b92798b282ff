#!/usr/bin/env bash
# The main job on SampleDocs, end to end: build docctl, then open, edit, validate and
# export a copy of a sample bundle in a scratch folder (SampleDocs stays untouched).
# Usage: scripts/demo.sh [SCRATCH_DIR]
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then
    sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
cd "$(dirname "$0")/.."
# A debug build: the demo runs a dozen commands on a small sample, where optimisation saves
# nothing, and a first release build takes twice as long (scripts/build-docctl.sh).
docctl="$(scripts/build-docctl.sh --debug)"
scratch="${1:-$(mktemp -d)}"
mkdir -p "$scratch"
cp SampleDocs/garden.dkproj SampleDocs/legacy-v1.dkproj SampleDocs/sources/legacy-defaults.plist "$scratch/"
cd "$scratch"
run() { printf '\n$ %s\n' "$*"; "$@"; }

run "$docctl" info garden.dkproj
run "$docctl" log garden.dkproj
run "$docctl" get garden.dkproj 'tasks[0].title'
run "$docctl" set garden.dkproj 'tasks[+]' '{"title": "Water the seedlings", "priority": "high"}' -m "Add a task"
run "$docctl" set garden.dkproj 'tasks[1].status' done -m "Beds dug"
run "$docctl" import --legacy-defaults legacy-defaults.plist garden.dkproj -m "Drafts from the old app"
run "$docctl" import --legacy-defaults legacy-defaults.plist garden.dkproj   # again: nothing new, no version
run "$docctl" cat garden.dkproj --version 1
run "$docctl" migrate legacy-v1.dkproj --dry-run
run "$docctl" migrate legacy-v1.dkproj -m "To schema 3.0.0"
run "$docctl" validate --deep garden.dkproj
run "$docctl" state set garden.dkproj export.format tar.zst
run "$docctl" export garden.dkproj -o garden.tar.zst
run "$docctl" extract garden.dkproj thumbnail -o thumbnail.png
run unzip -l garden.dkproj
printf '\ndemo files are in %s\n' "$scratch"
