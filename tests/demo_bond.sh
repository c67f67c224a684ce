#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make demo-bond`: fwd with a two-member LACP bond talking IEEE 802.1AX to
# a partner nobody here wrote, DPDK's bonding PMD (mode 4) in testpmd
# (tests/smoke/lib_bond.sh); both sides' LACP state, traffic of many flows
# spread over the members, a member's cable pulled and plugged in again.
# Everything runs in namespaces of its own and is torn down at the end,
# also on Ctrl-C.
#
#   h1 10.31.1.2 --- [partner: testpmd, net_bonding0 mode 4] ==2 links== [fwd: bond0 10.31.1.1]
#                                                                         u0 10.31.2.1 --- h2 10.31.2.2
set -u
cd "$(dirname "$0")/.."
export SRCDIR=$PWD BUILD=${BUILD:-$PWD/build}
. tests/smoke/lib.sh
. tests/smoke/lib_bond.sh

say() { printf '\n\033[1m### %s\033[0m\n' "$*"; }
run() {
	printf '$ fwdctl %s\n' "$*"
	fwdctl "$@"
}
partner() {
	if [ "$BOND_KIND" = linux ]; then
		printf '$ grep -E "^Slave|MII|Aggregator ID" /proc/net/bonding/bond0\n'
		ns_exec pt grep -E "^Slave|MII|Aggregator ID" /proc/net/bonding/bond0
		return
	fi
	printf 'testpmd> %s\n' "$*"
	bond_cmd "$@" | grep -vE '^\s*$'
}
# the partner's LACP view, short: per slave its state and fwd's system
partner_lacp() {
	printf '%s LACP info (short)\n' "$BOND_KIND"
	bond_partner_lacp | json_get "'\n'.join('  slave %s: actor %s; partner (fwd) %s port %s %s' % (k, ' '.join(v['actor']['state']), v['partner']['system'], v['partner']['port'], ' '.join(v['partner']['state'])) for k, v in sorted(d.items()))"
}
both_up() { bond_partner_distributing 0 && bond_partner_distributing 1; }

smoke_init demo-bond
bond_router_setup
bond_router_config "lacp: true, lacp_rate: fast"
say "fwd-daemon with bond0 over ports m1 and m2 (LACP, fast rate, layer3+4 hash)"
sed -n '/^ports:/,$p' "$T/fwd.yaml"
must daemon_start fw "$T/fwd.yaml"

say "the partner: DPDK's bonding PMD in mode 4 (testpmd; a Linux bond where the kernel has them), its slaves on the other ends of m1, m2"
must bond_partner pt 4 p3
must bond_keepalive h1 v1 10.31.1.1
wait_for 15 both_up || echo "(the partner does not distribute on both slaves yet)"
run bond list
run bond show bond0
partner_lacp

say "h1 (behind the partner) and h2 (behind u0) ping each other through the bond"
ns_exec h1 ping -c 3 -i 0.3 -W 1 10.31.2.2
say "16 UDP flows h2 -> h1: the hash spreads them over both members"
bg h1 timeout 10 "$PY" tests/smoke/bond_flows.py recv 7101 8 "$T/flows.json"
sleep 0.3
ns_exec h2 "$PY" tests/smoke/bond_flows.py send 10.31.1.2 7101 16 100 2
wait_for 5 test -s "$T/flows.json"
echo "received: $(cat "$T/flows.json")"
run stats | grep -E '^(PORT|m1|m2|bond0) '

say "m1's cable pulled (the partner's end down, the slave out of its bond)"
bond_member_down 1
sleep 1
run bond show bond0
partner "show bonding config $BOND_PORT"

say "plugged in again: m1 rejoins the aggregate"
bond_member_up 1
wait_for 10 both_up
run bond show bond0
partner_lacp

say "done: tearing down"
smoke_done
