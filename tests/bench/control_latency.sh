#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How long `status` waits on a fresh connection, idle and while the control
# socket is abused (tests/smoke/rpc_abuse.py: 200 busy clients, bad frames,
# hanging partial frames, slow readers of 100,000 routes). A figure, not a
# check: it depends on the machine's load (tests/smoke/rpc_abuse_test.sh
# checks only that status is answered).
#
#   bash tests/bench/control_latency.sh [BUILD_DIR] [SECONDS]
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
must daemon_start fw "$cfg"
"$PY" "$SRCDIR/tests/bench/gen_routes.py" 100000 10.53.1.2 >"$T/table.txt"
must fwdctl route load "$T/table.txt"

lat() { json_get "'p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d probes)' % (d['p50_ms'], d['p99_ms'], d['max_ms'], d['probes'])"; }
"$PY" "$SRCDIR/tests/smoke/rpc_abuse.py" --probe "$SOCK" "$SECONDS_RUN" |
	json_get "json.dumps({'p50_ms': sorted(d['lat'])[len(d['lat']) // 2], 'p99_ms': sorted(d['lat'])[int(len(d['lat']) * .99)], 'max_ms': max(d['lat']), 'probes': len(d['lat'])})" |
	lat | sed 's/^/status, idle:            /'
"$PY" "$SRCDIR/tests/smoke/rpc_abuse.py" "$SOCK" "$DAEMON_PID" "$SECONDS_RUN" >"$T/abuse.json"
lat <"$T/abuse.json" | sed 's/^/status, under abuse:     /'
cat "$T/abuse.json"
smoke_done
