#!/usr/bin/env bash
# Installs what building and testing DocumentKit needs on Debian or Ubuntu, only when it
# is missing: libarchive's headers, the peer tools the interoperability tests run (Ceph's
# radosgw and headless Chromium among them), and the Python judges (ocfl-py, bagit, moto's S3 server, boto3) in
# virtual environments under .tools/. With --demo, only what building docctl needs.
# Usage: scripts/setup.sh [--demo]   (as root, or with sudo available)
set -euo pipefail
demo=false
case "${1:-}" in
    --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --demo) demo=true ;;
    "") ;;
    *) echo "setup.sh: unknown option '$1' (usage: scripts/setup.sh [--demo])" >&2; exit 64 ;;
esac

missing=()
pkg-config --exists libarchive 2>/dev/null || missing+=(libarchive-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v unzip >/dev/null || missing+=(unzip)   # the demo lists a bundle with it
if ! $demo; then
    command -v bsdtar >/dev/null || missing+=(libarchive-tools)
    command -v zstd >/dev/null || missing+=(zstd)
    command -v python3 >/dev/null || missing+=(python3)
    python3 -c "import venv, ensurepip" 2>/dev/null || missing+=(python3-venv)
    # Ceph's S3 server, the second server the remote tests run against (Tests/RadosGW/start.sh
    # starts a single-node cluster on 127.0.0.1), and curl, which waits for it there.
    command -v ceph-mon >/dev/null || missing+=(ceph-mon)
    command -v ceph-osd >/dev/null || missing+=(ceph-osd)
    command -v radosgw >/dev/null || missing+=(radosgw)
    command -v ceph >/dev/null || missing+=(ceph-common)
    command -v curl >/dev/null || missing+=(curl)
    # The browser the HTML export is checked in (HTMLBrowserTests: --headless --dump-dom, --screenshot).
    command -v chromium >/dev/null || missing+=(chromium)
fi

if ((${#missing[@]})); then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6 from swift.org" >&2; exit 1; }

$demo && exit 0

# The Python tools that judge what docctl writes, each in a virtual environment of its own
# (pip cannot settle ocfl-py and moto together): .tools/NAME/bin/...
tools="$(cd "$(dirname "$0")/.." && pwd)/.tools"
venv() {   # venv NAME CHECK-PROGRAM PACKAGE...
    local name="$1" check="$2"
    shift 2
    [[ -x "$tools/$name/bin/$check" ]] && return 0
    echo "setup: installing $* into .tools/$name" >&2
    python3 -m venv "$tools/$name"
    "$tools/$name/bin/pip" install -q --disable-pip-version-check "$@" >/dev/null
}
venv ocfl ocfl-validate.py ocfl-py
venv bagit bagit.py bagit
venv moto moto_server "moto[server]"
