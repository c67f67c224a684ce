#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An active-backup bond whose partner is a Linux bridge (no bonding driver
# needed): two members, the bond routes between the bridge's host and h2;
# the active member's link taken down on the partner's side: the next one
# takes over within a second and announces the bond's address (gratuitous
# ARP), traffic goes on; counters: the bond's are its members' sums,
# frames on the backup member are bond_inactive; `iface list` says bond;
# --check refuses a member with an address and a port in two bonds.
#
#   h1 10.40.1.2 [br0: e1 e2] === d1 (p0), d2 (p1): bond0 10.40.1.1 [fwd] p2 10.40.2.1 --- h2
. "$(dirname "$0")/lib.sh"

smoke_init bond_failover
ns_add h1 h2 fw
veth h1 e1 fw d1
veth h1 e2 fw d2
veth h2 v2 fw d3
ns_exec h1 ip link add br0 type bridge
ns_exec h1 ip link set e1 master br0
ns_exec h1 ip link set e2 master br0
ns_exec h1 ip link set br0 up
must ns_host h1 br0 10.40.1.2/24 10.40.1.1
must ns_host h2 v2 10.40.2.2/24 10.40.2.1

cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1" }
  - { name: p1, device: "net_af_packet1,iface=d2" }
  - { name: p2, device: "net_af_packet2,iface=d3", addresses: [10.40.2.1/24] }
bonds:
  - { name: bond0, members: [p0, p1], lacp: false, addresses: [10.40.1.1/24] }
EOF
)
must daemon_start fw "$cfg"

jctl() { fwdctl -j "$@"; }
port_stat() { # port_stat NAME FIELD
	jctl stats | json_get "next((str(p.get('$2', 0)) for p in d.get('ports', []) if p['name'] == '$1'), 'absent')"
}
ping_ok() { ns_exec h1 ping -c 2 -i 0.2 -W 1 10.40.2.2; }

check "iface list says bond0 is a bond" \
	sh -c "'$FWDCTL_BIN' -s '$SOCK' -j iface list | grep -q '\"name\": *\"bond0\", *\"type\": *\"bond\"' ||
	       '$FWDCTL_BIN' -s '$SOCK' iface list | grep -E '^bond0 +bond'"
check "h1 reaches h2 through the bond" wait_for 10 ping_ok

fwdctl monitor bond >"$T/monitor.txt" 2>&1 &
mon_pid=$!
sleep 0.3
# 4 s of pings every 20 ms, p0's link down on the partner's side after 1 s:
# each lost ping is 20 ms without traffic
ns_exec h1 ping -q -i 0.02 -c 200 -W 1 10.40.2.2 >"$T/ping.txt" 2>&1 &
ping_pid=$!
sleep 1
ns_exec h1 ip link set e1 down
wait "$ping_pid"
got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$T/ping.txt")
lost_ms=$(((200 - ${got:-0}) * 20))
expect "failover within 1 s: ${lost_ms} ms of traffic lost (p0's link down on the partner's side)" \
	"$lost_ms" -le 1000
kill "$mon_pid" 2>/dev/null
wait "$mon_pid" 2>/dev/null
check "monitor bond: p0's link down, then the failover to p1" \
	sh -c "grep -q 'bond bond0 link-down member p0' '$T/monitor.txt' && grep -q 'bond bond0 failover member p1' '$T/monitor.txt'"
check "the daemon logs the failover to p1" grep -q "bond bond0: failover: new active member p1" "$T/daemon.log"
expect "bond show -j: p1 is the active member after 1 failover" \
	"$(jctl bond show bond0 | json_get "d['bonds'][0]['active'] + ' ' + str(d['bonds'][0].get('failovers', 0))")" = "p1 1"
ns_exec h1 ip link set e1 up
sleep 0.5
check "traffic goes on with p0 back (p1 stays active)" ping_ok
bond_rx=$(port_stat bond0 rx_packets)
sum_rx=$(( $(port_stat p0 rx_packets) + $(port_stat p1 rx_packets) ))
expect "the bond's rx packets are at most its members' sum ($bond_rx <= $sum_rx)" "$bond_rx" -le "$sum_rx"
expect "the bond received ($bond_rx)" "$bond_rx" -gt 0
# h1's ARP request (a broadcast) reaches both members: p0's copy is dropped
ns_exec h1 ip neigh flush dev br0
ns_exec h1 ping -c 1 -W 1 10.40.2.2 >/dev/null
inactive=$(jctl stats | json_get "sum(int(c.get('value', 0)) for p in d['ports'] if p['name'] == 'p0' for c in p.get('drop_reasons', []) if c['name'] == 'bond_inactive')")
expect "frames on the backup member p0 are dropped as bond_inactive ($inactive)" "$inactive" -gt 0

# reload: p0 leaves bond0 for a new bond1 (added after it)
cp "$cfg" "$T/orig.yaml"
daemon_config >/dev/null <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1" }
  - { name: p1, device: "net_af_packet1,iface=d2" }
  - { name: p2, device: "net_af_packet2,iface=d3", addresses: [10.40.2.1/24] }
bonds:
  - { name: bond0, members: [p1], lacp: false, addresses: [10.40.1.1/24] }
  - { name: bond1, members: [p0], lacp: false, hash: l34, addresses: [10.40.9.1/24] }
EOF
check "a reload moves p0 from bond0 to a new bond1" fwdctl config reload
expect "bond list after the reload: bond0 with p1, bond1 with p0" \
	"$(jctl bond list | json_get "' '.join(b['name'] + ':' + ','.join(m['name'] for m in b['members']) for b in d['bonds'])")" = "bond0:p1 bond1:p0"
check "traffic goes on through bond0 (p1)" ping_ok
check "bond1's address is there" sh -c "'$FWDCTL_BIN' -s '$SOCK' addr list | grep -q '10.40.9.1/24'"
check_fails "a reload removing bond1 is refused (needs a restart)" fwdctl config reload "$T/orig.yaml"

bad=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.9.9.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2" }
bonds:
  - { name: bond0, members: [p0, p1] }
  - { name: bond1, members: [p1] }
EOF
)
out=$(ip netns exec "$(ns fw)" "$FWD_DAEMON" --check -c "$bad" 2>&1)
echo "$out" >"$T/check.txt"
check "--check refuses a member with addresses" grep -q "ports\[0\].addresses: port is a member of bond bond0" "$T/check.txt"
check "--check refuses a port in two bonds" grep -q "bonds\[1\].members\[0\]: port 'p1' is already a member of bond bond0" "$T/check.txt"
smoke_done
