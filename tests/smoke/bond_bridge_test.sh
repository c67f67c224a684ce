#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A bond in a bridge: an LACP bond to DPDK's bonding PMD (lib_bond.sh) and
# a plain port, both in fwd's bridge br0; the hosts on either side are on
# one subnet. The bond learns like a port (the FDB names bond0, not a
# member), both ways work, and a member's cable pulled leaves the bridge
# working over the other.
#
#   h1 10.32.0.1 --- [pt: testpmd, mode 4] ==p1-d1,p2-d2== [fw: br0 = bond0 (m1 d1, m2 d2)
#                                                                  + u0 d3] --- h2 10.32.0.2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_bond.sh"

smoke_init bond_bridge
ns_add h1 pt fw h2
must bond_links pt fw 2
must veth h1 v1 pt p3
must veth h2 v2 fw d3
ip -n "$(ns h1)" link set v1 address 02:00:00:32:00:01
ip -n "$(ns h2)" link set v2 address 02:00:00:32:00:02
ip -n "$(ns h1)" addr add 10.32.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.32.0.2/24 dev v2
# h2 answers the keepalive: it has h1 without asking
ip -n "$(ns h2)" neigh replace 10.32.0.1 lladdr 02:00:00:32:00:01 dev v2 nud permanent

DATAPLANE_EXTRA="  idle_sleep_us: 100" daemon_config >/dev/null <<EOF
ports:
  - { name: m1, device: "net_af_packet0,iface=d1" }
  - { name: m2, device: "net_af_packet1,iface=d2" }
  - { name: u0, device: "net_af_packet2,iface=d3", mode: bridge, bridge: br0 }
bonds:
  - { name: bond0, members: [m1, m2], lacp: true, lacp_rate: fast, hash: l2,
      mode: bridge, bridge: br0 }
bridges:
  - { name: br0, mac_aging_s: 60 }
EOF
must daemon_start fw "$T/fwd.yaml"
must bond_partner pt 4 p3
must bond_keepalive h1 v1 10.32.0.2 02:00:00:32:00:02

bshow() { fwdctl -j bond show bond0; }
distributing() { fwd_distributing bond0 "$1"; }
both_up() { distributing m1 && distributing m2 && bond_partner_distributing 0 && bond_partner_distributing 1; }
fdb_port() {
	fwdctl -j bridge fdb br0 |
		json_get "next((e['port'] for e in d.get('entries', []) if e['mac'].lower() == '$1'), 'none')"
}
ping4() { ns_exec "$1" ping -c "${3:-2}" -i 0.2 -W 2 "$2"; }

check "LACP up on both members" wait_for 15 both_up
expect "bridge list: br0 has bond0 and u0" "$(fwdctl -j bridge list |
	json_get "' '.join(sorted(d['bridges'][0]['members']))")" = "bond0 u0"
check "ping h1 -> h2 across the bridge" ping4 h1 10.32.0.2
check "ping h2 -> h1 across the bridge (ARP through the bond)" ping4 h2 10.32.0.1
expect "fdb: h1's MAC on bond0 (not on a member)" "$(fdb_port 02:00:00:32:00:01)" = bond0
expect "fdb: h2's MAC on u0" "$(fdb_port 02:00:00:32:00:02)" = u0

bond_member_down 1
check "the bridge goes on over m2 alone" ping4 h2 10.32.0.1 3
expect "fdb: h1's MAC still on bond0" "$(fdb_port 02:00:00:32:00:01)" = bond0
bond_member_up 1
check "m1 rejoins" wait_for 10 both_up

smoke_done
