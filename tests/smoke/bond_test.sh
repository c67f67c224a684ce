#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A two-member LACP bond against a real 802.1AX partner (DPDK's bonding PMD
# in testpmd, lib_bond.sh): aggregation comes up and `fwdctl bond show`
# shows both sides' state; traffic of many flows uses both members (their
# tx counters); a member's cable pulled on the partner's side costs at
# most 1 s of traffic (both directions) and the member rejoins when it is
# back; a partner that falls silent on a member is dropped within 3 s
# (lacp_rate fast) while the other member carries on; a VLAN interface on
# the bond answers tagged ARP and ping.
#
#   h1 10.31.1.2 --- [pt: testpmd, net_bonding0 mode 4] ==p1-d1,p2-d2== [fw: bond0 10.31.1.1
#                                                          m1 d1, m2 d2     bond0.100 10.31.100.1]
#                                                              u0 d3 10.31.2.1 --- h2 10.31.2.2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_bond.sh"

smoke_init bond
must bond_router_setup
bond_router_config "lacp: true, lacp_rate: fast" \
	"interfaces: [ { name: bond0.100, port: bond0, vlan: 100, addresses: [10.31.100.1/24] } ]"
must daemon_start fw "$T/fwd.yaml"
must bond_partner pt 4 p3
must bond_keepalive h1 v1 10.31.1.1

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
bshow() { fwdctl -j bond show bond0; }
# lacp_state SIDE NAME: the actor's or partner's state bits of member NAME
lacp_state() { fwd_bond bond0 "' '.join(m['$2'].get('$1', {}).get('state', []))"; }
distributing() { fwd_distributing bond0 "$1" && lacp_state actor "$1" | grep -qw distributing; }
not_distributing() { ! distributing "$1"; }
both_up() { distributing m1 && distributing m2 && bond_partner_distributing 0 && bond_partner_distributing 1; }
member_tx() { fwd_port_counter "$1" tx_packets; }
member_rx() { fwd_port_counter "$1" rx_packets; }
ping4() { ns_exec "$1" ping -c "${3:-2}" -i 0.2 -W 2 "$2"; }

echo "-- LACP comes up"
t0=$(date +%s%N)
if wait_for 15 both_up; then
	pass "both members collecting and distributing, on both sides, in $(ms_since "$t0") ms"
else
	fail "aggregation did not come up within 15 s"
	bshow | sed 's/^/    | /'
	bond_partner_lacp | sed 's/^/    | /'
fi
pt_mac=$(ip -n "$(ns pt)" -j link show p1 | json_get "d[0]['address']")
expect "fwd sees the partner's system (its first slave's MAC)" \
	"$(fwd_bond bond0 "m['m1']['partner']['system']")" = "$pt_mac"
expect "the partner sees fwd's system (the bond's MAC)" \
	"$(bond_partner_lacp | json_get "d['0']['partner']['system']")" = "$BOND_MAC"
expect "m1 actor state bits by name" "$(lacp_state actor m1)" != ""
actor_fast() { lacp_state actor m1 | grep -qw timeout; }
check "fwd asks for fast rate (actor timeout bit)" actor_fast
fwdctl bond show bond0 >"$T/show.txt" 2>&1
check "bond show (human) names both members" grep -q m2 "$T/show.txt"
check "bond show (human) shows the partner's system" grep -qi "$pt_mac" "$T/show.txt"
check "bond list shows bond0" bash -c "$FWDCTL_BIN -s $SOCK bond list | grep -q bond0"
expect "iface list: bond0 is a bond" "$(fwdctl -j iface list |
	json_get "next(i['type'] for i in d['ifaces'] if i['name'] == 'bond0')")" = bond

echo "-- traffic"
check "ping h1 -> fwd's bond address" ping4 h1 10.31.1.1
check "ping h1 -> h2 through the bond" ping4 h1 10.31.2.2
check "ping h2 -> h1 through the bond" ping4 h2 10.31.1.2
tx1=$(member_tx m1) tx2=$(member_tx m2) rx1=$(member_rx m1) rx2=$(member_rx m2)
bg h1 timeout 10 "$PY" "$SRCDIR/tests/smoke/bond_flows.py" recv 7101 8 "$T/spread.json"
sleep 0.3
ns_exec h2 timeout 10 "$PY" "$SRCDIR/tests/smoke/bond_flows.py" send 10.31.1.2 7101 16 100 1.5
wait_for 5 test -s "$T/spread.json"
d1=$(($(member_tx m1) - tx1)) d2=$(($(member_tx m2) - tx2))
log "16 flows out of the bond: m1 sent $d1, m2 sent $d2; flows: $(cat "$T/spread.json")"
expect "16 flows h2 -> h1 all arrive" "$(json_get "d['lost']" <"$T/spread.json")" = 0
expect "m1 carries at least a fifth of them" "$d1" -ge $((2400 / 5))
expect "m2 carries at least a fifth of them" "$d2" -ge $((2400 / 5))
expect "fwd receives on both members (the partner hashes too)" \
	"$(($(member_rx m1) - rx1 > 0 && $(member_rx m2) - rx2 > 0))" = 1

echo "-- a member's cable pulled on the partner's side, then back"
leave_ms=
watch_leave() {
	local t
	t=$(date +%s%N)
	wait_for 2 not_distributing m1 && leave_ms=$(ms_since "$t")
}
down1() {
	bond_member_down 1
	watch_leave
	link_when_down=$(fwd_bond bond0 "m['m1'].get('link_up', False)")
}
bond_flows_start pull 5
sleep 1
down1
sleep 2
bond_member_up 1
T_UP=$(date +%s%N)
if [ -n "$leave_ms" ]; then
	pass "m1 left the aggregate ${leave_ms} ms after its link went down"
else
	fail "m1 still distributing 2 s after its link went down"
fi
expect "m1's link is down in bond show" "$link_when_down" = False
if wait_for 10 both_up; then
	pass "m1 rejoined $(ms_since "$T_UP") ms after its link came back"
else
	fail "m1 did not rejoin within 10 s"
	bshow | sed 's/^/    | /'
fi
bond_flows_check pull "cable pulled"

echo "-- the partner falls silent on m2"
bond_silence 2 on
t0=$(date +%s%N)
if wait_for 5 not_distributing m2; then
	left=$(ms_since "$t0")
	expect "m2 dropped ${left} ms after its partner fell silent (fast rate: <= 3000 ms + 500 ms)" \
		"$left" -le 3500
else
	fail "m2 still distributing 5 s after its partner fell silent"
fi
check "traffic goes on over m1" ping4 h2 10.31.1.2 3
bond_silence 2 off
check "m2 rejoins once the partner speaks again" wait_for 10 both_up

echo "-- a VLAN interface on the bond"
check "tagged ARP and ping to bond0.100 through the partner" \
	ns_exec h1 timeout 10 "$PY" "$SRCDIR/tests/smoke/bond_vlan.py" v1 "$BOND_MAC" 100 \
	10.31.100.2 10.31.100.1

smoke_done
