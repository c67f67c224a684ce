#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# LACP between two bonds of one daemon wired back to back (fwd is its own
# partner: no bonding driver needed): bond0 routes, bond1 is a bridge
# member beside p5. Both aggregate (every member collecting and
# distributing), flows from h1 to h2 use both members (hash l34), a
# member's link taken down leaves within a second and traffic goes on.
#
#   h1 10.41.1.2 --- p4 [fwd  bond0 (p0 p1) === (p2 p3) bond1 + p5: br0] --- h2 10.41.2.2
#                    10.41.1.1  10.41.2.1
. "$(dirname "$0")/lib.sh"

smoke_init bond_lacp_loop
ns_add h1 h2 fw
veth fw d0 fw d2
veth fw d1 fw d3
veth h1 v1 fw d4
veth h2 v2 fw d5
must ns_host h1 v1 10.41.1.2/24 10.41.1.1
must ns_host h2 v2 10.41.2.2/24 10.41.2.1

cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d0" }
  - { name: p1, device: "net_af_packet1,iface=d1" }
  - { name: p2, device: "net_af_packet2,iface=d2" }
  - { name: p3, device: "net_af_packet3,iface=d3" }
  - { name: p4, device: "net_af_packet4,iface=d4", addresses: [10.41.1.1/24] }
  - { name: p5, device: "net_af_packet5,iface=d5", mode: bridge, bridge: br0 }
bridges: [ { name: br0 } ]
bonds:
  - { name: bond0, members: [p0, p1], lacp_rate: fast, hash: l34, addresses: [10.41.2.1/24] }
  - { name: bond1, members: [p2, p3], lacp_rate: fast, hash: l34, mode: bridge, bridge: br0 }
EOF
)
must daemon_start fw "$cfg"
jctl() { fwdctl -j "$@"; }
port_stat() { # port_stat NAME FIELD
	jctl stats | json_get "next((int(p.get('$2', 0)) for p in d.get('ports', []) if p['name'] == '$1'), 0)"
}
collecting() { # all 4 members collecting
	[ "$(grep -c 'LACP collecting_distributing' "$T/daemon.log")" -ge 4 ]
}
check "LACP: all four members collecting and distributing within 5 s" wait_for 5 collecting
check "h1 reaches h2 across the aggregate" wait_for 10 ns_exec h1 ping -c 1 -W 1 10.41.2.2
fwdctl bond show bond0 >"$T/show.txt" 2>&1
mac1=$(jctl bond show bond1 | json_get "d['bonds'][0]['mac']")
check "bond show: bond0's partner is bond1's system ($mac1)" \
	grep -q "partner system 65535,$mac1 key 8 port 3" "$T/show.txt"
check "bond show: both sides' state bits by name" \
	grep -q "actor   system .* state activity,timeout,aggregation,synchronization,collecting,distributing" "$T/show.txt"
expect "bond show -j: 2 members distributing" \
	"$(jctl bond show bond0 | json_get "d['bonds'][0]['distributing']")" = 2
check "bond list shows both bonds up" sh -c "'$FWDCTL_BIN' -s '$SOCK' bond list | grep -c ' up ' | grep -qx 2"
check_fails "bond show of no bond fails" fwdctl bond show p0

tx0=$(port_stat p0 tx_packets)
tx1=$(port_stat p1 tx_packets)
ns_exec h2 iperf3 -s -1 -D -p 5201 >/dev/null
sleep 0.3
check "8 TCP flows from h1 to h2" ns_exec h1 timeout 20 iperf3 -c 10.41.2.2 -p 5201 -P 8 -t 2
d0=$(($(port_stat p0 tx_packets) - tx0))
d1=$(($(port_stat p1 tx_packets) - tx1))
expect "the flows leave by both members (p0 $d0, p1 $d1 packets)" "$d0" -gt 100 -a "$d1" -gt 100
bond_tx=$(port_stat bond0 tx_packets)
sum_tx=$(($(port_stat p0 tx_packets) + $(port_stat p1 tx_packets)))
expect "bond0's tx is its members' sum less their LACPDUs ($bond_tx <= $sum_tx)" "$bond_tx" -le "$sum_tx" -a "$bond_tx" -gt $((sum_tx - 200))

# 4 s of pings every 20 ms, p1's link (and so p3's) down after 1 s
ns_exec h1 ping -q -i 0.02 -c 200 -W 1 10.41.2.2 >"$T/ping.txt" 2>&1 &
ping_pid=$!
sleep 1
ns_exec fw ip link set d1 down
wait "$ping_pid"
got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$T/ping.txt")
lost_ms=$(((200 - ${got:-0}) * 20))
expect "a member's link down: ${lost_ms} ms of traffic lost (at most 1 s)" "$lost_ms" -le 1000
check "the daemon says p1 left the aggregate" grep -q "bond bond0: member p1 link down" "$T/daemon.log"
ns_exec fw ip link set d1 up
rejoined() { [ "$(grep -c 'member p1: LACP collecting_distributing' "$T/daemon.log")" -ge 2 ]; }
check "p1 rejoins once its link is back" wait_for 5 rejoined
smoke_done
