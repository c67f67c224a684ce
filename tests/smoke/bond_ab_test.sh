#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An active-backup bond (lacp: false) against DPDK's bonding PMD in mode 1
# (lib_bond.sh): one member carries everything; the active member's cable
# pulled on the partner's side: the other takes over within 1 s of traffic
# (both directions), and fwd announces the bond's address and its VLAN
# interface's (gratuitous ARP on the new member, seen by the host behind
# the partner); the member back is a backup and carries nothing; a second
# failover (the other member pulled) goes back to it.
#
#   h1 10.31.1.2 --- [pt: testpmd, net_bonding0 mode 1] ==p1-d1,p2-d2== [fw: bond0 10.31.1.1
#                                                          m1 d1, m2 d2     bond0.100 10.31.100.1]
#                                                              u0 d3 10.31.2.1 --- h2 10.31.2.2
# The PMD in mode 1 receives only on its active slave, so the harness keeps
# the partner's and fwd's active member on the same veth pair: both start
# on the first (the partner's primary, fwd's first member) and a cable pull
# moves both.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_bond.sh"

smoke_init bond_ab
must bond_router_setup
bond_router_config "lacp: false" \
	"interfaces: [ { name: bond0.100, port: bond0, vlan: 100, addresses: [10.31.100.1/24] } ]"
must daemon_start fw "$T/fwd.yaml"
must bond_partner pt 1 p3
must bond_keepalive h1 v1 10.31.1.1

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
bshow() { fwdctl -j bond show bond0; }
active() { fwd_bond bond0 "b.get('active', '')"; }
active_is() { [ "$(active)" = "$1" ]; }
member_tx() { fwd_port_counter "$1" tx_packets; }
ping4() { ns_exec "$1" ping -c "${3:-2}" -i 0.2 -W 2 "$2"; }

echo "-- one active member"
expect "m1 (the first member) is active" "$(active)" = m1
check "ping h1 -> h2 through the bond" ping4 h1 10.31.2.2
check "ping h2 -> h1 through the bond" ping4 h2 10.31.1.2
tx2=$(member_tx m2)
check "ping h2 -> h1, 20 more" ns_exec h2 ping -c 20 -i 0.02 -W 2 10.31.1.2
expect "the backup m2 sent nothing" "$(($(member_tx m2) - tx2))" = 0

# the host behind the partner listens for fwd's announcements (-e: the tag)
bg h1 tcpdump -l -n -e -i v1 arp
sleep 0.5

# failover FROM TO I: member I's cable pulled while FROM is active; TO takes over
failover() {
	local t
	bond_flows_start "fail$3" 3
	sleep 1
	bond_member_down "$3"
	t=$(date +%s%N)
	if wait_for 2 active_is "$2"; then
		pass "$2 took over from $1 $(ms_since "$t") ms after $1's link went down"
	else
		fail "$2 not active 2 s after $1's link went down (active: $(active))"
	fi
	bond_flows_check "fail$3" "failover $1 -> $2"
}
# garps N: gratuitous ARPs for 10.31.N.1 h1 has seen so far (a request for
# the address by itself, or a broadcast reply), tagged lines with "vlan 100"
garps() {
	cat "$T"/bg.*.log 2>/dev/null | grep -E "who-has 10\.31\.$1\.1 tell 10\.31\.$1\.1|ff:ff:ff:ff:ff:ff.*Reply 10\.31\.$1\.1 is-at" |
		grep -c "${2:-}"
}
more_garps() { [ "$(garps "$@")" -gt "${GARPS_BEFORE:?}" ]; }

echo "-- the active member's cable pulled"
GARPS_BEFORE=$(garps 1)
before100=$(garps 100 "vlan 100")
failover m1 m2 1
check "gratuitous ARP for the bond's address reaches h1" wait_for 3 more_garps 1
GARPS_BEFORE=$before100
check "gratuitous ARP for bond0.100's address (tagged 100) reaches h1" \
	wait_for 3 more_garps 100 "vlan 100"
check "ping h1 -> h2 after the failover" ping4 h1 10.31.2.2

echo "-- m1 back: a backup"
bond_member_up 1
sleep 1
expect "m2 stays active" "$(active)" = m2
expect "m1's link is up again" "$(fwd_bond bond0 "m['m1'].get('link_up', False)")" = True
tx1=$(member_tx m1)
check "ping h2 -> h1, 20" ns_exec h2 ping -c 20 -i 0.02 -W 2 10.31.1.2
expect "the backup m1 sent nothing" "$(($(member_tx m1) - tx1))" = 0

echo "-- m2's cable pulled: back to m1"
failover m2 m1 2
check "ping h1 -> h2 after the second failover" ping4 h1 10.31.2.2
bond_member_up 2

smoke_done
