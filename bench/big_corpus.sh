#!/usr/bin/env bash
# Makes the big bench corpus (about 1.3 GB: a 25,000-task document, 2,000 blobs of 64 KiB
# and one of 512 MiB, all random) in CORPUS/source, once: bench/run.sh and bench/remote.sh
# both measure on it. A corpus left incomplete by an interrupted run is made again.
# Usage: bench/big_corpus.sh CORPUS
set -euo pipefail
if [[ "${1:-}" == "--help" || $# -ne 1 ]]; then sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
corpus="$1"
if [[ ! -f "$corpus/source/document.json" ]]; then
    # Only the source: the other scripts' bundles beside it (history/, html/) took minutes
    # to an hour to make.
    rm -rf "$corpus/source"
    python3 "$(dirname "$0")/make_corpus.py" "$corpus/source"
fi
