#!/bin/bash
# Start a throwaway single-node Ceph (Pacific 16.2.x, Debian 12 packages) with one
# mon, one memstore OSD and radosgw, bound to 127.0.0.1 only.  No mgr, no cephx.
# The remote tests' second S3 server (Tests/DocumentKitTests/Support/RadosGW.swift starts
# one per test run, on free ports); also for trying docctl against radosgw by hand.
#
# Needs: ceph-mon ceph-osd radosgw ceph-common curl (scripts/setup.sh installs them)
#
# Usage:  start.sh [SCRATCH_DIR]        (default: ./ceph-cluster, relative to CWD)
#   env: RGW_PORT (default 47480), MON_PORT_V1 (46789), MON_PORT_V2 (43300),
#        OSD_PORT_MIN (46800), MEMSTORE_BYTES (1073741824),
#        S3_ACCESS_KEY / S3_SECRET_KEY (defaults below)
# Writes SCRATCH_DIR/env.sh (endpoint + keys) and SCRATCH_DIR/pids; stop with
#   stop.sh SCRATCH_DIR
set -euo pipefail
# The daemons must not hold what the caller left open: Foundation's Process on Linux sees
# its child end by a socket the child inherits closing, and daemons keeping it would make
# this script seem never to end (nor pipes read to their end).
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" != 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

D=${1:-ceph-cluster}
mkdir -p "$D"
D=$(cd "$D" && pwd)        # daemons chdir, so they need an absolute path internally
RGW_PORT=${RGW_PORT:-47480}
MON_PORT_V1=${MON_PORT_V1:-46789}
MON_PORT_V2=${MON_PORT_V2:-43300}
OSD_PORT_MIN=${OSD_PORT_MIN:-46800}
MEMSTORE_BYTES=${MEMSTORE_BYTES:-1073741824}
S3_ACCESS_KEY=${S3_ACCESS_KEY:-TESTACCESSKEY0000001}
S3_SECRET_KEY=${S3_SECRET_KEY:-testsecretkey0000000000000000000000000001}

for port in $RGW_PORT $MON_PORT_V1 $MON_PORT_V2; do   # fail early if a port is taken
  if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then echo "port $port in use" >&2; exit 1; fi
done
rm -rf "$D"/{mon,osd,rgw,log,run,ceph.conf,monmap,pids,env.sh}
mkdir -p "$D"/{mon,osd,rgw,log,run}
export CEPH_CONF="$D/ceph.conf"
FSID=$(cat /proc/sys/kernel/random/uuid)

cat > "$CEPH_CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT_V2,v1:127.0.0.1:$MON_PORT_V1]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind port min = $OSD_PORT_MIN
ms bind port max = $((OSD_PORT_MIN + 100))
auth cluster required = none
auth service required = none
auth client required = none
keyring = $D/keyring
run dir = $D/run
admin socket = $D/run/\$name.asok
log file = $D/log/\$name.log
pid file = $D/run/\$name.pid
chdir = ""
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
mon data avail warn = 1
osd crush chooseleaf type = 0

[mon.a]
mon data = $D/mon
mon data avail crit = 0
mon cluster log file = $D/log/mon-cluster.log
# default 1s batching per osdmap change; rgw startup makes ~8 of them
paxos propose interval = 0.05

[osd.0]
osd data = $D/osd
osd objectstore = memstore
memstore device bytes = $MEMSTORE_BYTES
osd op num shards = 1
osd op num threads per shard = 2
osd class load list = *
osd class default list = *

[client.rgw.a]
rgw data = $D/rgw
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw thread pool size = 16
rgw dns name = 127.0.0.1
# radosgw defaults to ms_mon_client_mode=secure, impossible without cephx (-> EACCES -13)
ms mon client mode = crc
EOF

t0=$(date +%s.%N)
say() { echo ">> [$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')s] $*"; }
# on any failure, stop whatever was already started (by recorded PID)
trap '[ -f "$D/pids" ] && kill -9 $(awk "{print \$2}" "$D/pids") 2>/dev/null; rm -f "$D/pids"; echo "FAILED; logs in $D/log" >&2' ERR
say mon
monmaptool --create --fsid "$FSID" \
  --addv a "[v2:127.0.0.1:$MON_PORT_V2,v1:127.0.0.1:$MON_PORT_V1]" "$D/monmap" >/dev/null
ceph-mon --mkfs -i a --monmap "$D/monmap" --keyring /dev/null
ceph-mon -f -i a >>"$D/log/mon.a.stdout" 2>&1 &
echo "mon.a $!" >> "$D/pids"
timeout 60 sh -c "until ceph -s --connect-timeout 5 >/dev/null 2>&1; do sleep 0.5; done"

say osd
OSD_UUID=$(cat /proc/sys/kernel/random/uuid)
OSD_ID=$(ceph osd new "$OSD_UUID")
[ "$OSD_ID" = 0 ] || { echo "unexpected osd id $OSD_ID"; exit 1; }
ceph-osd -i 0 --mkfs --osd-uuid "$OSD_UUID" >>"$D/log/osd.0.stdout" 2>&1
ceph osd crush add osd.0 1 root=default host=localhost >/dev/null 2>&1 || true
ceph-osd -f -i 0 >>"$D/log/osd.0.stdout" 2>&1 &
echo "osd.0 $!" >> "$D/pids"
timeout 60 sh -c "until ceph osd stat 2>/dev/null | grep -q '1 up'; do sleep 0.5; done"

say radosgw
radosgw -f -n client.rgw.a >>"$D/log/rgw.a.stdout" 2>&1 &
RGW_PID=$!
echo "rgw.a $RGW_PID" >> "$D/pids"
# ready = our radosgw alive and answering (anonymous ListBuckets returns owner "anonymous")
timeout 120 sh -c "until curl -s http://127.0.0.1:$RGW_PORT/ | grep -q '<ID>anonymous</ID>'; do kill -0 $RGW_PID || exit 1; sleep 0.2; done"

say user
radosgw-admin user create --uid=tester --display-name="Test User" \
  --access-key="$S3_ACCESS_KEY" --secret-key="$S3_SECRET_KEY" >/dev/null

cat > "$D/env.sh" <<EOF
export AWS_ENDPOINT_URL=http://127.0.0.1:$RGW_PORT
export AWS_ACCESS_KEY_ID=$S3_ACCESS_KEY
export AWS_SECRET_ACCESS_KEY=$S3_SECRET_KEY
export AWS_DEFAULT_REGION=us-east-1
export CEPH_CONF=$CEPH_CONF
EOF
trap - ERR
say "ready: http://127.0.0.1:$RGW_PORT  (source $D/env.sh)"
