#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# af_xdp buffers. The af_xdp PMD maps the mbuf pool as its UMEM and keeps,
# per queue pair, its fill ring stocked with 2048 of the pool's mbufs and up
# to rxd + 2048 more in its tx and completion rings; the daemon sizes the
# pool as dataplane.mbufs plus those (fwd_ports_pinned_mbufs). With
# dataplane.mbufs at 2047, less than one fill ring (a pool of that size
# alone does not even start), the daemon starts, forwards a modest flood
# (punt_flood: half forwarded, half TTL 1) between two af_xdp ports, and
# rx_mbuf_allocation_errors stays 0: on af_xdp it grows by a whole burst on
# every poll that finds packets waiting but cannot refill the fill ring
# (README, "Reading the counters"), so any shortage shows at once. And
# frames the kernel drops on the port's interface before fwd's rings show
# in the port's kernel_rx_dropped.
#
#   h1 10.44.1.2/24 --- p0 10.44.1.1 [fwd] p1 10.44.2.1 --- h2 10.44.2.2/24
# run.sh: alone: its flood takes a CPU for FLOOD_S seconds
. "$(dirname "$0")/lib.sh"

FLOOD_S=${FLOOD_S:-3}
FLOOD_BIN=$BUILD/tests/punt_flood
MBUFS=2047
PINNED=$((2 * (2 * 2048 + 1024))) # two ports, one queue pair each, rxd 1024

smoke_init afxdp_pool
[ -x "$FLOOD_BIN" ] || {
	fail "$FLOOD_BIN is missing (make tests-build)"
	exit 1
}
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.44.1.2/24 10.44.1.1
ns_host h2 v2 10.44.2.2/24 10.44.2.1

cfg=$(SMOKE_MBUFS=$MBUFS daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_xdp0,iface=d1", addresses: [10.44.1.1/24] }
  - { name: p1, device: "net_af_xdp1,iface=d2", addresses: [10.44.2.1/24] }
EOF
)
xstat() { fwdctl -j stats "$1" | json_get "sum(c['value'] for c in d['ports'][0]['xstats'] if c['name']=='$2')"; }
port_counter() { fwdctl -j stats "$1" | json_get "d['ports'][0]['$2']"; }

must daemon_start fw "$cfg"
size=$(fwdctl -j status | json_get "d['mempool']['size']")
expect "the pool holds dataplane.mbufs ($MBUFS) + the af_xdp rings ($PINNED): $size" \
	"$size" -eq $((MBUFS + PINNED))
check "ping h1 -> h2 through two af_xdp ports" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.44.2.2

router_mac=$(ns_exec fw cat /sys/class/net/d1/address)
ns_exec h1 "$FLOOD_BIN" v1 "$router_mac" 10.44.1.2 10.44.2.2 10.44.2.2 "$FLOOD_S" \
	>"$T/flood.out" 2>&1
log "flood: $(cat "$T/flood.out") (packets sent, per second)"
rx0=$(port_counter p0 rx_packets)
tx1=$(port_counter p1 tx_packets)
expect "p0 received the flood ($rx0 > 10000)" "$rx0" -gt 10000
expect "p1 forwarded its TTL 64 half ($tx1 > 5000)" "$tx1" -gt 5000
for p in p0 p1; do
	n=$(xstat $p rx_mbuf_allocation_errors)
	expect "$p: rx_mbuf_allocation_errors stays 0 ($n)" "$n" -eq 0
done
check "ping still works after the flood" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.44.2.2

# What the kernel drops before fwd's rings is counted too: with the daemon
# stopped (SIGSTOP) its af_xdp rx ring fills and the veth drops the rest of
# a flood (XDP redirect into a full ring), which p0's kernel_rx_dropped
# reports, since `stats clear`, as the interface's rx_dropped counts it.
kdrop() { ns_exec fw cat /sys/class/net/d1/statistics/rx_dropped; }
must fwdctl stats clear
n=$(xstat p0 kernel_rx_dropped)
expect "kernel_rx_dropped is 0 after stats clear ($n)" "$n" -eq 0
k0=$(kdrop)
kill -STOP "$DAEMON_PID"
ns_exec h1 "$FLOOD_BIN" v1 "$router_mac" 10.44.1.2 10.44.2.2 10.44.2.2 1 >"$T/flood2.out" 2>&1
kill -CONT "$DAEMON_PID"
k1=$(kdrop)
n=$(xstat p0 kernel_rx_dropped)
expect "the kernel dropped frames on d1 while the daemon was stopped ($((k1 - k0)))" \
	$((k1 - k0)) -gt 0
expect "p0's kernel_rx_dropped counts them ($n = $((k1 - k0)))" "$n" -eq $((k1 - k0))
check "ping still works after the stop" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.44.2.2
smoke_done
