#!/usr/bin/env bash
# Replaces the radosgw cluster in SCRATCH (bench/remote.sh's) with a fresh one on the ports
# in RGW_PORT, MON_PORT_V1, MON_PORT_V2 and OSD_PORT_MIN, and makes bucket BUCKET: each
# timed push then starts from an empty server (memstore frees deleted objects only at
# radosgw's garbage collection, hours later, and a full store stalls).
# Usage: bench/rgw_fresh.sh SCRATCH BUCKET
set -euo pipefail
scratch="$1" bucket="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
STOP_SIGNAL=KILL bash "$root/Tests/RadosGW/stop.sh" "$scratch"
MEMSTORE_BYTES=$((2 << 30)) bash "$root/Tests/RadosGW/start.sh" "$scratch" >/dev/null 2>&1
source "$scratch/env.sh"
"$root/.tools/moto/bin/python3" - "$bucket" <<'PY'
import sys, boto3
boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=sys.argv[1])
PY
