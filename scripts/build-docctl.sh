#!/usr/bin/env bash
# Builds docctl as it is meant to be run (release, with the Swift runtime and Foundation
# linked in) and prints the path of the binary. With --s3, builds docctl-s3 beside it too,
# the helper docctl runs for s3:// remotes (it brings in SwiftNIO and a second BoringSSL).
# With --debug, a debug build instead, in half the time, for what runs a few commands on
# small bundles (the demo). The benchmarks and install.sh build here too.
# Usage: scripts/build-docctl.sh [--s3] [--debug]   (build output goes to stderr)
set -euo pipefail
s3=false
# Linked statically, docctl starts in about 4 ms instead of 8 (no dynamic loading of the
# Swift runtime and Foundation), which every command pays, and runs on machines without
# a Swift toolchain. One flag for every release build: changing it rebuilds everything.
flags=(-c release --static-swift-stdlib)
for option in "$@"; do
    case "$option" in
        --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --s3) s3=true ;;
        --debug) flags=(-c debug) ;;
        *) echo "build-docctl.sh: unknown option '$option' (usage: scripts/build-docctl.sh [--s3] [--debug])" >&2; exit 64 ;;
    esac
done
cd "$(dirname "$0")/.."
swift build "${flags[@]}" --product docctl 2>&1 | tail -1 >&2
# Only when asked: the demo and every command but the remote ones run without it, and
# building it takes most of a first build's time.
if $s3; then
    swift build "${flags[@]}" --product docctl-s3 2>&1 | tail -1 >&2
fi
echo "$(swift build "${flags[@]}" --show-bin-path)/docctl"
