#!/usr/bin/env bash
# Builds the DocumentKit library's documentation with swift-docc-plugin: the catalog
# Sources/DocumentKit/DocumentKit.docc and the doc comments of the public API, including the
# layers DocumentKit re-exports (DocumentBundle, DocumentKitError, …). Any warning fails it.
# Prints the path of the .doccarchive; with --output DIR, writes a static website to DIR instead.
# Usage: scripts/docs.sh [--output DIR]
set -euo pipefail
usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }
output=""
while (($#)); do
    case "$1" in
        --help) usage; exit 0 ;;
        --output) output="${2:?--output needs a folder}"; shift ;;
        *) usage >&2; exit 64 ;;
    esac
    shift
done
cd "$(dirname "$0")/.."

# `import DocumentKit` re-exports the layers below it, but SwiftPM extracts a target's symbol
# graph with its own declarations only (and the plugin cannot ask for more), so
# DocumentBundle, SaveMetadata or DocumentKitError would have no page. swift-symbolgraph-extract
# can include the re-exported modules: its graph is handed to the plugin as an additional
# one, which DocC merges with the plugin's own for the same module.
swift build --target DocumentKit 2>&1 | grep -E "error:" >&2 && exit 1
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)"
graphs=.build/documentation/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
swift-symbolgraph-extract -module-name DocumentKit -target "$triple" -minimum-access-level public \
    -I "$bin/Modules" -Xcc "-fmodule-map-file=Sources/CArchive/module.modulemap" \
    -experimental-allowed-reexported-modules=DocumentKitCore,DocumentKitArchive,DocumentKitJSON,DocumentKitBundle \
    -output-dir "$graphs"
# The plugin makes the extensions of other modules' types (Swift's, Foundation's) itself.
find "$graphs" -name 'DocumentKit@*.symbols.json' -delete

options=(--target DocumentKit --additional-symbol-graph-dir "$graphs" --warnings-as-errors)
if [[ -n "$output" ]]; then
    mkdir -p "$output"
    swift package --allow-writing-to-directory "$output" generate-documentation "${options[@]}" \
        --transform-for-static-hosting --output-path "$output" >&2
    echo "$output"
else
    swift package generate-documentation "${options[@]}" >&2
    echo "$(pwd)/.build/plugins/Swift-DocC/outputs/DocumentKit.doccarchive"
fi
