# Sourced by the bench scripts: sets `root` (the repository, also the working directory),
# `docctl` (built as it is meant to run, by scripts/build-docctl.sh; with docctl-s3 beside
# it when the script set `needs_s3=1` first), `corpus` and `out` (bench/corpus and
# bench/out), after installing what the machine lacks (scripts/setup.sh); and the fixed
# clock and time zone every run uses.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
docctl="$(scripts/build-docctl.sh ${needs_s3:+--s3})"
corpus="$root/bench/corpus"
out="$root/bench/out"
mkdir -p "$out"
export SOURCE_DATE_EPOCH=1767225600 TZ=UTC
