#!/usr/bin/env bash
# Builds docctl as it is meant to be run (release, with the Swift runtime and Foundation
# linked in) and prints the path of the binary. With --s3, builds docctl-s3 beside it too,
# the helper docctl runs for s3:// remotes (it brings in SwiftNIO and a second BoringSSL).
# Every script that runs docctl for real (the demo, the benchmarks) builds it here.
# Usage: scripts/build-docctl.sh [--s3]   (build output goes to stderr)
set -euo pipefail
s3=false
case "${1:-}" in
    --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --s3) s3=true ;;
    "") ;;
    *) echo "build-docctl.sh: unknown option '$1' (usage: scripts/build-docctl.sh [--s3])" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/.."
# Linked statically, docctl starts in about 4 ms instead of 8 (no dynamic loading of the
# Swift runtime and Foundation), which every command pays, and runs on machines without
# a Swift toolchain. One flag for every release build: changing it rebuilds everything.
flags=(-c release --static-swift-stdlib)
swift build "${flags[@]}" --product docctl 2>&1 | tail -1 >&2
# Only when asked: the demo and every command but the remote ones run without it, and
# building it takes most of a first build's time.
if $s3; then
    swift build "${flags[@]}" --product docctl-s3 2>&1 | tail -1 >&2
fi
echo "$(swift build "${flags[@]}" --show-bin-path)/docctl"
