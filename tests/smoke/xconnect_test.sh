#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Cross-connect: two hosts in one subnet joined by an xconnect pair through
# the daemon, once on af_packet ports and once on af_xdp ports.
. "$(dirname "$0")/lib.sh"

smoke_init xconnect
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ip -n "$(ns h1)" addr add 10.1.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.1.0.2/24 dev v2

port_counter() { fwdctl -j stats "$1" | json_get "d['ports'][0]['$2']"; }
port_modes() { fwdctl -j port list | json_get "' '.join(p['mode'] for p in d['ports'])"; }
admin_up() { fwdctl -j port show "$1" | json_get "d['admin_up']"; }
ping_ok() { ns_exec h1 ping -c 3 -i 0.2 -W 1 10.1.0.2; }
ping_fails() { ! ns_exec h1 ping -c 2 -i 0.2 -W 1 10.1.0.2; }

run() {
	local pmd=$1 cfg rx0 tx1
	echo "-- $pmd"
	cfg=$(daemon_config <<-EOF
	ports:
	  - { name: p0, device: "net_${pmd}0,iface=d1", mode: xconnect, peer: p1 }
	  - { name: p1, device: "net_${pmd}1,iface=d2", mode: xconnect, peer: p0 }
	EOF
	)
	must daemon_start fw "$cfg"
	expect "$pmd: both ports listed in xconnect mode" "$(port_modes)" = "xconnect xconnect"
	# the first pings also resolve h2 through the daemon just started: on a
	# loaded machine that can take longer than ping_ok waits, so retry
	check "$pmd: ping h1 -> h2 through the cross-connect" wait_for 2 ping_ok
	iperf_tcp "$pmd: iperf3 TCP 2 s through the daemon" 10.1.0.2

	rx0=$(port_counter p0 rx_packets)
	tx1=$(port_counter p1 tx_packets)
	expect "$pmd: fwdctl stats counts p0 rx ($rx0) > 10000" "$rx0" -gt 10000
	expect "$pmd: fwdctl stats counts p1 tx ($tx1) > 10000" "$tx1" -gt 10000

	check "$pmd: port set p0 down" fwdctl port set p0 down
	expect "$pmd: port show p0 reports admin down" "$(admin_up p0)" = False
	check "$pmd: ping fails while p0 is down" ping_fails
	check "$pmd: port set p0 up" fwdctl port set p0 up
	check "$pmd: ping works again after up" wait_for 10 ping_ok
	check "$pmd: stats clear" fwdctl stats clear
	expect "$pmd: counters restart from zero after clear" "$(port_counter p0 rx_packets)" -lt 100

	if daemon_stop; then pass "$pmd: daemon stopped cleanly"; else fail "$pmd: daemon stopped cleanly"; fi
}

run af_packet
run af_xdp
exit 0
