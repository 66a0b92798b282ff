#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build folder of its own.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/sanitize.sh address|thread [SWIFT-TEST-OPTION...]
       scripts/sanitize.sh --help

Builds and runs the whole test suite with `swift test --sanitize=KIND`, in .build-asan or
.build-tsan so that the normal .build is untouched. Every process is instrumented: the
tests and the docctl they run. Options after KIND go to `swift test` (e.g. --filter
JSONPath). Run it under `nice -n 19` on a shared machine.

address  AddressSanitizer and LeakSanitizer; scripts/sanitizers/lsan.supp names the
         leaks that are not DocumentKit's, each with its reason.
thread   ThreadSanitizer; scripts/sanitizers/tsan.supp likewise.
USAGE
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) usage >&2; exit 64 ;;
esac
kind="$1"
shift
cd "$(dirname "$0")/.."
suppressions="$PWD/scripts/sanitizers"

# A crash should be reported by the sanitizer, not by the Swift runtime's backtracer,
# which reads memory ASan forbids.
export SWIFT_BACKTRACE=enable=no
# print_suppressions=0: a docctl process whose leaks are all suppressed must still print
# nothing but its own one error line, which the tests check.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$suppressions/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=$suppressions/tsan.supp"
exec swift test --sanitize="$kind" --scratch-path "$scratch" "$@"
