#!/usr/bin/env bash
# Builds docctl and docctl-s3 in release (scripts/build-docctl.sh --s3) and installs them into
# PREFIX/bin, with the manual (PREFIX/share/man/man1/docctl.1) and the bash, zsh and fish
# completions in the places those shells look. Running it again replaces what it installed.
#   --prefix DIR    where to install (default: $PREFIX, else /usr/local)
#   --bin-dir DIR   install the docctl and docctl-s3 already built in DIR; build nothing
# DESTDIR, when set, is put before every path, as packagers stage an install.
# Usage: scripts/install.sh [--prefix DIR] [--bin-dir DIR]
set -euo pipefail
usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; }
prefix="${PREFIX:-/usr/local}"
bin_dir=""
while (($#)); do
    case "$1" in
        --help) usage; exit 0 ;;
        --prefix) prefix="${2:?--prefix needs a folder}"; shift ;;
        --bin-dir) bin_dir="${2:?--bin-dir needs a folder}"; shift ;;
        *) usage >&2; exit 64 ;;
    esac
    shift
done
repository="$(cd "$(dirname "$0")/.." && pwd)"
if [[ -z "$bin_dir" ]]; then
    bin_dir="$(dirname "$("$repository/scripts/build-docctl.sh" --s3)")"
fi
for tool in docctl docctl-s3; do
    [[ -x "$bin_dir/$tool" ]] || { echo "install.sh: no $tool in $bin_dir" >&2; exit 66; }
done

root="${DESTDIR:-}$prefix"
put() {   # put MODE FILE DESTINATION: installs FILE, making DESTINATION's folder, and says so
    install -d "$(dirname "$3")"
    install -m "$1" "$2" "$3"
    echo "installed $3"
}
# docctl runs docctl-s3 from its own folder for s3:// remotes: they go in together.
put 755 "$bin_dir/docctl" "$root/bin/docctl"
put 755 "$bin_dir/docctl-s3" "$root/bin/docctl-s3"
put 644 "$repository/man/docctl.1" "$root/share/man/man1/docctl.1"

# The completions come from the docctl being installed, so they match its commands.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
completion() {   # completion SHELL DESTINATION
    "$bin_dir/docctl" --generate-completion-script "$1" > "$scratch/$1"
    put 644 "$scratch/$1" "$2"
}
completion bash "$root/share/bash-completion/completions/docctl"
completion zsh "$root/share/zsh/site-functions/_docctl"
completion fish "$root/share/fish/vendor_completions.d/docctl.fish"
