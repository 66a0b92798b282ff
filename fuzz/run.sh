#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/Package.swift) and runs each for SECONDS.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: fuzz/run.sh [--keep-going] SECONDS [TARGET...]
       fuzz/run.sh --build-only
       fuzz/run.sh --help

Builds the fuzz targets with -sanitize=fuzzer,address and runs each TARGET (default:
all) for SECONDS, all at once, one process each. Run it under `nice -n 19` on a shared
machine. Targets:

  bundle    bytes as a .dkproj file: validate --deep, cat, log, every version read
  jsonpath  text as a docctl get/set path: parse, print and re-parse, get, set, remove
  json      bytes as JSON: parse, serialize compactly and pretty, parse back

Corpora grow in fuzz/corpus/TARGET (seeded from SampleDocs/*.dkproj and fuzz/seeds/);
inputs that crash, hang (-timeout) or run out of memory (-rss_limit_mb) are written to
fuzz/crashes/TARGET/; each run's log is fuzz/logs/TARGET.log. Exits 1 when any target
found something; the summary names the file. A target stops at its first finding,
unless --keep-going: then it fuzzes in a child process (libFuzzer's -fork=1) that is
restarted after each crash, hang or out-of-memory, for the whole SECONDS. fuzz/README.md says how to reproduce one
and turn it into a regression test.

Environment: FUZZ_TIMEOUT (seconds per input, default 30: on a busy shared machine a
niced input that takes 0.1 s of CPU has waited past 10 s), FUZZ_RSS_LIMIT_MB (default
2048), FUZZ_OPTIONS (more libFuzzer options, e.g. "-seed=1 -max_len=4096").
USAGE
}

keep_going=""
if [ "${1:-}" = --keep-going ]; then
    keep_going="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
    shift
fi
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    --build-only) ;;
    ''|*[!0-9]*) usage >&2; exit 64 ;;
esac

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
all_targets=(bundle jsonpath json)

executable() {
    case "$1" in
        bundle) echo BundleFuzzer ;;
        jsonpath) echo JSONPathFuzzer ;;
        json) echo JSONParseFuzzer ;;
        *) echo "fuzz/run.sh: no target '$1' (targets: ${all_targets[*]})" >&2; exit 64 ;;
    esac
}

# Fills fuzz/corpus/TARGET with the seeds it lacks; the fuzzer adds what it finds there.
seed() {
    local corpus="$here/corpus/$1"
    mkdir -p "$corpus"
    case "$1" in
        bundle)
            for sample in "$root"/SampleDocs/*.dkproj; do
                cp -n "$sample" "$corpus/seed-$(basename "$sample")"
            done ;;
        jsonpath)
            local number=0 line
            while IFS= read -r line; do
                number=$((number + 1))
                [ -e "$corpus/seed-$number" ] || printf '%s' "$line" > "$corpus/seed-$number"
            done < "$here/seeds/jsonpath.txt" ;;
        json)
            for sample in "$here"/seeds/json/*; do
                cp -n "$sample" "$corpus/seed-$(basename "$sample")"
            done ;;
    esac
}

# libFuzzer instruments and links only through swiftc; gold fails on the result
# (an internal error in dwarf_reader.cc), lld links it.
build() {
    echo "fuzz/run.sh: building (release, -sanitize=fuzzer,address; log fuzz/logs/build.log)" >&2
    mkdir -p "$here/logs"
    if ! (cd "$here" && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld) > "$here/logs/build.log" 2>&1; then
        grep -E "error:" "$here/logs/build.log" >&2 || tail -n 20 "$here/logs/build.log" >&2
        echo "fuzz/run.sh: the build failed" >&2
        exit 70
    fi
}

if [ "$1" = --build-only ]; then build; exit 0; fi
seconds="$1"
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do executable "$target" > /dev/null; done
build

# The Swift runtime's backtracer would catch a crash before ASan and libFuzzer do, and
# read memory ASan forbids; with it off, libFuzzer saves the input and ASan reports.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:handle_abort=1"

# What a target found: libFuzzer's slow-unit-* files are reports, not findings.
findings() { find "$here/crashes/$1" -type f ! -name "slow-unit-*" | wc -l; }

pids=()
found_before=()
for target in "${targets[@]}"; do
    seed "$target"
    mkdir -p "$here/crashes/$target" "$here/logs"
    found_before+=("$(findings "$target")")
    dictionary="$here/dictionaries/$target.dict"
    # shellcheck disable=SC2086 # FUZZ_OPTIONS and keep_going are lists of options
    "$here/.build/release/$(executable "$target")" \
        -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb="${FUZZ_RSS_LIMIT_MB:-2048}" \
        -dict="$dictionary" -artifact_prefix="$here/crashes/$target/" -print_final_stats=1 \
        $keep_going ${FUZZ_OPTIONS:-} "$here/corpus/$target" > "$here/logs/$target.log" 2>&1 &
    pids+=($!)
    echo "fuzz/run.sh: $target running for ${seconds}s (pid $!, log fuzz/logs/$target.log)" >&2
done

status=0
for index in "${!targets[@]}"; do
    target="${targets[$index]}"
    log="$here/logs/$target.log"
    exited=0
    wait "${pids[$index]}" || exited=$?
    found=$(( $(findings "$target") - ${found_before[$index]} ))
    if [ "$exited" -eq 0 ] && [ "$found" -eq 0 ]; then
        result="nothing found"
    else
        result="FOUND SOMETHING (exit $exited, $found new in fuzz/crashes/$target)"
        status=1
    fi
    echo "== $target: $result; corpus $(find "$here/corpus/$target" -type f | wc -l) inputs"
    # The last stats line (cov, ft, corp, exec/s) and the totals, in both modes.
    grep -E "^#[0-9]+:? .*cov: " "$log" | tail -n 1 || true
    grep -E "^Done [0-9]+ runs|^INFO: exiting|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$log" || true
    grep -E "ERROR: |Fatal error|Test unit written to|ALARM|CRASH|TIMEOUT|OOM" "$log" | sort | uniq -c | head -n 20 || true
done
exit "$status"
