#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How long `status` waits on a fresh connection, idle and while the control
# socket is abused (tests/smoke/rpc_abuse.py: 200 busy clients, bad frames,
# hanging partial frames, slow readers of 100,000 routes); what 1,000 GETs
# of the metrics endpoint cost the control thread; and how long status and
# a GET wait while 1,000 slowloris clients hammer the endpoint
# (tests/smoke/metrics_slow.py). Figures, not checks: they depend on the
# machine's load (rpc_abuse_test.sh and metrics_abuse_test.sh check only
# that status and GETs are answered).
#
#   bash tests/bench/control_latency.sh [BUILD_DIR] [SECONDS]
#   FWD_DAEMON=/other/fwd-daemon FD_LIMIT=1024 bash tests/bench/control_latency.sh
#
# Prints one line per case, then the JSON of the abuse run. Runs as root in
# namespaces of its own, like the smoke tests (tests/smoke/lib.sh).
BUILD=$(cd "${1:-build/san}" && pwd)
SECONDS_RUN=${2:-8}
. "$(dirname "$0")/../smoke/lib.sh"

smoke_init control_latency
ns_add fw
lone_port fw d1
cfg=$(daemon_config <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.53.1.1/24] }
	neighbors:
	  - { address: 10.53.1.2, mac: "02:00:00:00:53:02", port: p0 }
	EOF
)
METRICS=127.0.0.1:9113
sed -i "s/^  socket_group: root\$/&\n  metrics: \"$METRICS\"/" "$cfg"
must daemon_start fw "$cfg"
# FD_LIMIT=N: the daemon's descriptors (systemd's unit: 65,536)
[ -z "${FD_LIMIT:-}" ] || must prlimit --pid "$DAEMON_PID" --nofile="$FD_LIMIT:$FD_LIMIT"
"$PY" "$SRCDIR/tests/bench/gen_routes.py" 100000 10.53.1.2 >"$T/table.txt"
must fwdctl route load "$T/table.txt"

lat() { json_get "'p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d probes)' % (d['p50_ms'], d['p99_ms'], d['max_ms'], d['probes'])"; }
"$PY" "$SRCDIR/tests/smoke/rpc_abuse.py" --probe "$SOCK" "$SECONDS_RUN" |
	json_get "json.dumps({'p50_ms': sorted(d['lat'])[len(d['lat']) // 2], 'p99_ms': sorted(d['lat'])[int(len(d['lat']) * .99)], 'max_ms': max(d['lat']), 'probes': len(d['lat'])})" |
	lat | sed 's/^/status, idle:            /'
"$PY" "$SRCDIR/tests/smoke/rpc_abuse.py" "$SOCK" "$DAEMON_PID" "$SECONDS_RUN" >"$T/abuse.json"
lat <"$T/abuse.json" | sed 's/^/status, under abuse:     /'
cat "$T/abuse.json"

# the metrics endpoint: the daemon's CPU time for 1,000 GETs in a row
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$DAEMON_PID/task/$DAEMON_PID/stat"; } # the control thread
c0=$(cpu_ms)
took=$(ns_exec fw "$PY" -c "import time, urllib.request
t = time.monotonic()
for i in range(1000):
    urllib.request.urlopen('http://$METRICS/metrics', timeout=10).read()
print(round(time.monotonic() - t, 2))")
echo "metrics, 1000 GETs:      ${took} s, control thread CPU $(($(cpu_ms) - c0)) ms"

# 1,000 slowloris clients (reconnecting when closed) for 20 s; probes after 10 s
ns_exec fw "$PY" "$SRCDIR/tests/smoke/metrics_slow.py" "${METRICS%:*}" "${METRICS#*:}" 1000 20 2 \
	>"$T/slow.json" &
slow=$!
SMOKE_PIDS+=("$slow")
sleep 10
for i in 1 2 3 4 5; do
	t0=$(date +%s%N)
	timeout 15 "$FWDCTL_BIN" -s "$SOCK" status >/dev/null 2>&1 && st=ok || st=FAILED
	t1=$(date +%s%N)
	code=$(ns_exec fw curl -s --max-time 10 -o /dev/null -w '%{http_code}' "http://$METRICS/metrics")
	t2=$(date +%s%N)
	echo "slowloris probe $i:       status $st in $(((t1 - t0) / 1000000)) ms, GET $code in $(((t2 - t1) / 1000000)) ms, daemon fds $(ls "/proc/$DAEMON_PID/fd" | wc -l)"
	sleep 1
done
wait "$slow"
echo "slowloris:               $(cat "$T/slow.json")"
smoke_done
