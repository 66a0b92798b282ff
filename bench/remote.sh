#!/usr/bin/env bash
# Benchmarks docctl's remotes on the big bench bundle (bench/run.sh's corpus): push to an
# empty S3 remote (moto's server on 127.0.0.1, directly and behind a proxy adding 20 ms
# each way) against boto3's transfer manager uploading the same files as `aws s3 cp
# --recursive` does, push to an empty folder against `cp -r`, a second push after a
# one-field edit (its bytes counted), pull and clone, and archive; and, on a project of
# one 300 MiB blob, a pull of a one-field edit against a clone, from a folder and from S3
# (issue 24: at most 0.1x); then the S3 pushes again against radosgw. Median wall time of
# RUNS runs and peak memory.
# Results also go to bench/out/remote.md.
# Usage: bench/remote.sh [RUNS]   (default 3)
set -euo pipefail
if [[ "${1:-}" == "--help" ]]; then sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs="${1:-3}"
needs_s3=1   # docctl-s3 beside docctl, for the s3:// remotes
source "$(dirname "$0")/prelude.sh"
bench/big_corpus.sh "$corpus"
work="$corpus/remote"
rm -rf "$work" && mkdir -p "$work"
"$docctl" import "$corpus/source" -o "$work/big.dkproj" --author bench >/dev/null
cp "$work/big.dkproj" "$work/edit.dkproj"
"$docctl" set "$work/edit.dkproj" name "Edited" >/dev/null
# The 300 MiB-blob project: one blob, a small document; blob-base has one version,
# blob-edit one more (a one-field edit).
[[ -f "$corpus/blob300/document.json" ]] || python3 bench/make_corpus.py "$corpus/blob300" --big-mib 300 --blobs 0 --tasks 200
"$docctl" import "$corpus/blob300" -o "$work/blob-base.dkproj" --author bench >/dev/null
cp "$work/blob-base.dkproj" "$work/blob-edit.dkproj"
"$docctl" set "$work/blob-edit.dkproj" name "Edited" >/dev/null

# moto's S3 server, on a free port, for this run only.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
.tools/moto/bin/moto_server -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
moto=$!
trap 'kill -9 $moto 2>/dev/null || true' EXIT
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.2; done
# The same server behind a link with 20 ms each way (bench/latency_proxy.py): what a
# request's round trip costs once the server is not on this machine.
coproc LATENCY { exec python3 bench/latency_proxy.py "$port" 20; }
read -r far_port <&"${LATENCY[0]}"
trap 'kill -9 $moto $LATENCY_PID 2>/dev/null || true' EXIT
far="AWS_ENDPOINT_URL=http://127.0.0.1:$far_port"
py=.tools/moto/bin/python3

# The remotes the second push, the pull and the clone start from.
"$docctl" push "$work/big.dkproj" "$work/base-remote" >/dev/null
cp -r "$work/base-remote" "$work/edited-remote"
"$docctl" push "$work/edit.dkproj" "$work/edited-remote" >/dev/null
cp -r "$work/base-remote" "$work/second-remote"
second="$("$docctl" push "$work/edit.dkproj" "$work/second-remote" --json)"
"$docctl" push "$work/blob-edit.dkproj" "$work/blob-remote" >/dev/null
$py bench/s3_clear.py bench base

B="$work/big.dkproj" W="$work"
python3 - "$out/remote-spec.json" "$docctl" "$B" "$W" "$corpus/source" "$py" "$far" <<'PY'
import json, sys
out, docctl, big, work, source, py, far = sys.argv[1:]
def c(group, name, cmd, before=None):
    item = {"group": group, "name": name, "cmd": cmd,
            "label": cmd.replace(far + " ", "").replace(docctl, "docctl").replace(work + "/", "").replace(source, "corpus").replace(py, "python3")}
    if before: item["before"] = before
    return item
commands = [
    c("push to an empty S3 remote", "boto3 upload", f"{py} bench/s3_upload.py {source} bench boto3", before=f"{py} bench/s3_clear.py bench boto3"),
    c("push to an empty S3 remote", "docctl push s3", f"{docctl} push {big} s3://bench/docctl", before=f"{py} bench/s3_clear.py bench docctl"),
    c("push to S3 over 20 ms each way", "boto3 upload far", f"{far} {py} bench/s3_upload.py {source} bench boto3far",
      before=f"{py} bench/s3_clear.py bench boto3far"),
    c("push to S3 over 20 ms each way", "docctl push s3 far", f"{far} {docctl} push {big} s3://bench/docctlfar",
      before=f"{py} bench/s3_clear.py bench docctlfar"),
    c("push to an empty folder", "cp -r", f"cp -r {source} {work}/cp-copy", before=f"rm -rf {work}/cp-copy"),
    c("push to an empty folder", "docctl push folder", f"{docctl} push {big} {work}/folder-remote", before=f"rm -rf {work}/folder-remote"),
    c("push a one-field edit", "docctl push edit", f"{docctl} push {work}/edit.dkproj {work}/r2",
      before=f"rm -rf {work}/r2 && cp -r {work}/base-remote {work}/r2"),
    c("pull and clone", "docctl pull", f"{docctl} pull {work}/p.dkproj {work}/edited-remote",
      before=f"cp {big} {work}/p.dkproj && sync {work}/p.dkproj"),
    c("pull and clone", "docctl clone folder", f"{docctl} clone {work}/base-remote -o {work}/c.dkproj --force"),
    c("pull and clone", "docctl clone s3", f"{docctl} clone s3://bench/base -o {work}/c3.dkproj --force"),
    c("archive", "docctl archive", f"{docctl} archive {big} {work}/ocfl", before=f"rm -rf {work}/ocfl"),
    c("pull a one-field edit of a 300 MiB-blob project", "docctl pull blob folder", f"{docctl} pull {work}/pb.dkproj {work}/blob-remote",
      before=f"cp {work}/blob-base.dkproj {work}/pb.dkproj && sync {work}/pb.dkproj"),
    c("pull a one-field edit of a 300 MiB-blob project", "docctl clone blob folder", f"{docctl} clone {work}/blob-remote -o {work}/cb.dkproj --force"),
    c("pull a one-field edit of a 300 MiB-blob project", "docctl pull blob s3", f"{docctl} pull {work}/pb3.dkproj s3://bench/blob",
      before=f"cp {work}/blob-base.dkproj {work}/pb3.dkproj && sync {work}/pb3.dkproj"),
    c("pull a one-field edit of a 300 MiB-blob project", "docctl clone blob s3", f"{docctl} clone s3://bench/blob -o {work}/cb3.dkproj --force"),
]
ratios = [
    {"of": "docctl push s3", "to": "boto3 upload", "target": "at most 0.8x"},
    {"of": "docctl push s3 far", "to": "boto3 upload far", "target": "at most 0.8x"},
    {"of": "docctl push folder", "to": "cp -r", "target": ""},
    {"of": "docctl push folder", "to": "boto3 upload", "target": ""},
    {"of": "docctl pull blob folder", "to": "docctl clone blob folder", "target": "at most 0.1x", "max": 0.1},
    {"of": "docctl pull blob s3", "to": "docctl clone blob s3", "target": "at most 0.1x", "max": 0.1},
]
json.dump({"commands": commands, "ratios": ratios}, open(out, "w"), indent=1)
PY
"$docctl" push "$B" s3://bench/base >/dev/null
"$docctl" push "$work/blob-edit.dkproj" s3://bench/blob >/dev/null
echo "measuring ($runs runs each)..." >&2
{
    echo "Run: \`bench/remote.sh $runs\` on $(nproc) cores, $(date -u +%Y-%m-%d), $(uname -r); warm cache; medians of $runs runs; S3 is moto's server on 127.0.0.1."
    echo
    python3 bench/measure.py "$out/remote-spec.json" "$runs"
    echo
    python3 - "$second" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"Second push after a one-field edit: {r['filesSent']} files, {r['bytesSent']:,} bytes sent "
      f"(in {', '.join(r['newVersions'])}: a segment holding the version and the new manifest.json; no blob).")
PY
} | tee "$out/remote.md"

# The same pushes to radosgw, Ceph's S3 server (C++, production; scripts/setup.sh installs
# it), directly and behind the 20 ms proxy: a server that leaves the client's own cost in
# view, where moto's Python spends about as much CPU per push as boto3's whole upload takes.
if command -v radosgw >/dev/null; then
    rgw="$work/rgw"
    ports="$(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')"
    read -r rgw_port mon1 mon2 <<<"$ports"
    export RGW_PORT="$rgw_port" MON_PORT_V1="$mon1" MON_PORT_V2="$mon2" OSD_PORT_MIN=$((rgw_port % 20000 + 30000))
    bench/rgw_fresh.sh "$rgw" bench
    # Not a second coproc (bash runs one at a time): the proxy's port comes through a file.
    python3 bench/latency_proxy.py "$rgw_port" 20 >"$work/rgw-far-port" &
    rgw_latency=$!
    trap 'kill -9 $moto $LATENCY_PID $rgw_latency 2>/dev/null || true; STOP_SIGNAL=KILL bash Tests/RadosGW/stop.sh "$rgw"' EXIT
    for _ in $(seq 100); do [[ -s "$work/rgw-far-port" ]] && break; sleep 0.1; done
    read -r rgw_far <"$work/rgw-far-port"
    near="env $(grep -o 'AWS_[A-Z_]*=[^ ]*' "$rgw/env.sh" | tr '\n' ' ')"
    python3 - "$out/remote-rgw-spec.json" "$docctl" "$B" "$corpus/source" "$py" "$near" "$rgw_far" "$rgw" <<'PY'
import json, sys
out, docctl, big, source, py, near, far_port, rgw = sys.argv[1:]
far = " ".join(w if not w.startswith("AWS_ENDPOINT_URL=") else f"AWS_ENDPOINT_URL=http://127.0.0.1:{far_port}" for w in near.split())
fresh = f"bench/rgw_fresh.sh {rgw} bench"
def c(group, name, cmd):
    label = cmd.replace(far + " ", "").replace(near + " ", "").replace(docctl, "docctl").replace(big, "big.dkproj").replace(source, "corpus").replace(py, "python3")
    return {"group": group, "name": name, "cmd": cmd, "before": fresh, "label": label}
commands = [
    c("push to radosgw", "boto3 upload rgw", f"{near} {py} bench/s3_upload.py {source} bench boto3"),
    c("push to radosgw", "docctl push rgw", f"{near} {docctl} push {big} s3://bench/docctl"),
    c("push to radosgw over 20 ms each way", "boto3 upload rgw far", f"{far} {py} bench/s3_upload.py {source} bench boto3"),
    c("push to radosgw over 20 ms each way", "docctl push rgw far", f"{far} {docctl} push {big} s3://bench/docctl"),
]
ratios = [
    {"of": "docctl push rgw", "to": "boto3 upload rgw", "target": "at most 0.8x", "max": 0.8},
    {"of": "docctl push rgw far", "to": "boto3 upload rgw far", "target": "at most 0.8x", "max": 0.8},
]
json.dump({"commands": commands, "ratios": ratios}, open(out, "w"), indent=1)
PY
    {
        echo
        echo "radosgw (Ceph 16, memstore), a fresh cluster before each timed push; medians of $runs runs:"
        echo
        python3 bench/measure.py "$out/remote-rgw-spec.json" "$runs"
    } | tee -a "$out/remote.md"
fi
