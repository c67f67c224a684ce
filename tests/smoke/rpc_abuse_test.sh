#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The control socket under abuse: 200 concurrent clients, clients that send
# a length and vanish, oversized lengths, garbage, hanging partial frames,
# slow readers of a large route list. A well-behaved client's status must
# be answered throughout (within 5 s: only a lock-out takes that long; the
# latency itself is a figure of tests/bench/control_latency.sh, not a
# check: it depends on the machine's load), and the daemon's fd count must
# return to its baseline.
. "$(dirname "$0")/lib.sh"

smoke_init rpc_abuse
ns_add fw
lone_port fw d1
cfg=$(daemon_config <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.51.1.1/24] }
	neighbors:
	  - { address: 10.51.1.2, mac: "02:00:00:00:51:02", port: p0 }
	EOF
)
must daemon_start fw "$cfg"
"$PY" "$SRCDIR/tests/bench/gen_routes.py" 100000 10.51.1.2 >"$T/table.txt"
must fwdctl route load "$T/table.txt"

"$PY" "$SRCDIR/tests/smoke/rpc_abuse.py" "$SOCK" "$DAEMON_PID" 8 >"$T/abuse.json"
log "$(cat "$T/abuse.json")"
get() { json_get "$1" <"$T/abuse.json"; }
expect "the prober got answers throughout ($(get "d['probes']") probes)" "$(get "d['probes']")" -ge 10
expect "status answered every time while the abuse runs (p50 $(get "d['p50_ms']") ms, max $(get "d['max_ms']") ms)" \
	"$(get "int(d['max_ms'] < 5000)")" -eq 1
expect "no client saw an error ($(get "d['errors']"))" "$(get "d['n_errors']")" -eq 0
expect "the 200 busy clients were served ($(get "d['counts']['status_ok']") answers)" \
	"$(get "d['counts']['status_ok']")" -ge 200
expect "bad frames were closed by the daemon" "$(get "d['counts']['closed_by_daemon']")" -gt 10
expect "slow readers got route pages" "$(get "d['counts']['slow_bytes']")" -gt 10000
expect "fd count back to baseline ($(get "d['fd_base']") -> peak $(get "d['fd_peak']") -> $(get "d['fd_final']"))" \
	"$(get "d['fd_final']")" -le "$(get "d['fd_base']")"
check "fwdctl still works afterwards" fwdctl status

smoke_done
