#!/usr/bin/env bash
# Regenerates man/docctl.1 from docctl's help with swift-argument-parser's generate-manual
# plugin. Run it after changing a command, an option or a help text, and commit the result.
# The date stays the committed page's until the text changes, so running it again, on any
# day, gives the same bytes; --date dates it anew. --check only says whether the page is up to
# date with the help (exit 1 if not) and writes nothing.
# Usage: scripts/generate-manual.sh [--check] [--date YYYY-MM-DD]
set -euo pipefail
usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; }
check=false
date=""
dated=""
while (($#)); do
    case "$1" in
        --help) usage; exit 0 ;;
        --check) check=true ;;
        --date) date="${2:?--date needs YYYY-MM-DD}"; dated=yes; shift ;;
        *) usage >&2; exit 64 ;;
    esac
    shift
done
cd "$(dirname "$0")/.."
page=man/docctl.1
# The page is English and its date UTC, whatever the machine's settings.
export LC_ALL=C.UTF-8 TZ=UTC
# A new text is dated by the checkout, not the clock, so that anyone regenerating it at the
# same commit gets the same bytes: SOURCE_DATE_EPOCH's day when set, else the day of HEAD.
if [[ -z "$date" && -n "${SOURCE_DATE_EPOCH:-}" ]]; then date="$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)"; fi
[[ -n "$date" ]] || date="$(git log -1 --format=%cd --date=format-local:%F 2>/dev/null || date -u +%F)"

# The plugin builds every product, then runs generate-manual on each tool. Debug, not the
# plugin's default release: the page comes from the help text, which is the same in both,
# and debug reuses what `swift build` built (release would build every product again, minutes).
output=.build/plugins/GenerateManual/outputs/docctl/docctl.1
rm -f "$output"
swift package generate-manual --configuration debug --date "$date" >&2
[[ -f "$output" ]] || { echo "generate-manual.sh: the plugin wrote no $output" >&2; exit 1; }

# Only the .Dd line (the date) differs: the committed page is up to date, and keeps its date.
if { $check || [[ -z "$dated" ]]; } && [[ -f "$page" ]] && cmp -s <(grep -v '^\.Dd ' "$page") <(grep -v '^\.Dd ' "$output"); then
    echo "$page is up to date"
    exit 0
fi
if $check; then
    echo "$page is out of date with docctl's help: run scripts/generate-manual.sh and commit it" >&2
    exit 1
fi
mkdir -p man
cp "$output" "$page"
echo "wrote $page"
