#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# fwdctl iface (fwdctl(8)) against a running daemon: interfaces[] from the
# file in `iface list` (-j), add/set/del of VLANs and loopbacks at run
# time, the refusals (exit 1) and usage errors (exit 2), `config show`
# writing what runs, and a reload that reconciles interfaces[] (a changed
# vlan is a delete and an add, an entry gone is deleted, fwdctl's stay);
# a loopback's addresses from the file installed, moved by a reload; an
# l3 VLAN's link-local address; a VLAN's address on a port's subnet
# refused alike by --check, config check and the reload.
#
# A VLAN in mode bridge is a member of its bridge (`bridge list`) until
# a reload makes it l3; `stats` (-j and NAME) shows VLANs and loopbacks.
#
#   [fwd: p0 (lone veth end), p0.100, p0.200 (bridge br0), lo0]
. "$(dirname "$0")/lib.sh"

smoke_init iface_cli
ns_add fw
must lone_port fw d0

write_config() {
	daemon_config >/dev/null <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d0", mtu: 1500, addresses: [10.9.0.1/24] }
bridges: [ { name: br0 } ]
interfaces:
$1
EOF
}
write_config "  - { name: p0.100, port: p0, vlan: 100, mtu: 1400 }
  - { name: p0.200, port: p0, vlan: 200, mode: bridge, bridge: br0 }
  - { name: lo0, loopback: true, addresses: [192.0.2.1/32, \"2001:db8:ff::1/128\"] }"
must daemon_start fw "$T/fwd.yaml"

list() { fwdctl -j iface list; }
field() { list | json_get "[i.get('$2', '') for i in d['ifaces'] if i['name'] == '$1'][0]"; }
names() { list | json_get "' '.join(sorted(i['name'] for i in d['ifaces']))"; }

expect "iface list: the port, 2 VLANs and the loopback" "$(names)" = "lo0 p0 p0.100 p0.200"
expect "p0.100 is a vlan" "$(field p0.100 type)" = vlan
expect "on p0" "$(field p0.100 parent)" = p0
expect "VLAN 100" "$(field p0.100 vlan)" = 100
expect "MTU 1400" "$(field p0.100 mtu)" = 1400
expect "p0.200 is a bridge interface" "$(field p0.200 mode)" = bridge
expect "a VLAN has its port's MAC" "$(field p0.200 mac)" = "$(field p0 mac)"
expect "lo0 is a loopback" "$(field lo0 type)" = loopback
check "p0 lists its address" sh -c "'$FWDCTL_BIN' -s '$SOCK' -j iface list | grep -q '10.9.0.1/24'"
check "lo0's addresses from the file are installed" sh -c "'$FWDCTL_BIN' -s '$SOCK' addr list | grep -q 'lo0.*192.0.2.1/32'"
check "iface list prints a table" sh -c "'$FWDCTL_BIN' -s '$SOCK' iface list | grep -q '^p0.100 *vlan *p0 *100'"

# a VLAN in a bridge is its member; stats count each interface
members() { fwdctl -j bridge list | json_get "' '.join([b.get('members', []) for b in d['bridges'] if b['name'] == 'br0'][0])"; }
expect "p0.200 is a member of br0" "$(members)" = p0.200
stat_names() { fwdctl -j stats | json_get "' '.join(sorted(i['name'] for i in d.get('interfaces', [])))"; }
expect "stats -j lists the VLANs and the loopback" "$(stat_names)" = "lo0 p0.100 p0.200"
check "stats p0.100 (an interface name)" sh -c "'$FWDCTL_BIN' -s '$SOCK' stats p0.100 | grep -q '^p0.100 '"
expect "stats nope: exit 1" "$(fwdctl stats nope >/dev/null 2>&1; echo $?)" = 1

check "iface add p0.300 port p0 vlan 300 mtu 1300" fwdctl iface add p0.300 port p0 vlan 300 mtu 1300
check "iface add lo1 loopback" fwdctl iface add lo1 loopback
expect "both listed" "$(names)" = "lo0 lo1 p0 p0.100 p0.200 p0.300"
check "iface set p0.300 down" fwdctl iface set p0.300 down
expect "p0.300 admin down" "$(field p0.300 admin_up)" = False
check "iface set p0.300 up" fwdctl iface set p0.300 up
check "port set p0.300 down (an interface name where a port is named)" fwdctl port set p0.300 down
expect "p0.300 admin down" "$(field p0.300 admin_up)" = False
check "port set p0.300 up" fwdctl port set p0.300 up
expect "p0.300 admin up" "$(field p0.300 admin_up)" = True
check "iface set p0.300 mtu 1200" fwdctl iface set p0.300 mtu 1200
expect "p0.300 MTU 1200" "$(field p0.300 mtu)" = 1200

# refusals: exit 1
st() { fwdctl "$@" >/dev/null 2>&1; echo $?; }
expect "a VLAN taken twice: exit 1" "$(st iface add x port p0 vlan 300)" = 1
expect "a name taken: exit 1" "$(st iface add p0.100 loopback)" = 1
expect "an unknown port: exit 1" "$(st iface add x port p9 vlan 5)" = 1
expect "an MTU above the port's: exit 1" "$(st iface set p0.300 mtu 9000)" = 1
expect "deleting a port: exit 1" "$(st iface del p0)" = 1
expect "deleting what is not there: exit 1" "$(st iface del nope)" = 1
expect "a name over 15 characters: exit 1" "$(st iface add abcdefghijklmnop loopback)" = 1
# usage errors: exit 2, and -j changes nothing
expect "VLAN 4095: exit 2" "$(st iface add x port p0 vlan 4095)" = 2
expect "-j VLAN 4095: exit 2" "$(st -j iface add x port p0 vlan 4095)" = 2
expect "set without a state: exit 2" "$(st iface set p0.300)" = 2
expect "iface frob: exit 2" "$(st iface frob)" = 2
expect "-j a refusal: exit 1" "$(st -j iface del nope)" = 1
check "did you mean: ifce -> iface" sh -c "'$FWDCTL_BIN' -s '$SOCK' ifce list 2>&1 | grep -q iface"

fwdctl config show >"$T/show.yaml"
check "config show writes fwdctl's VLAN" grep -q 'name: "p0.300"' "$T/show.yaml"
check "with its MTU" grep -q 'mtu: 1200' "$T/show.yaml"
check "config show writes lo0's addresses" grep -q '192.0.2.1/32' "$T/show.yaml"
check "what config show writes loads (fwd-daemon --check)" \
	ns_exec fw "$FWD_DAEMON" --check -c "$T/show.yaml"

# monitor iface: made, down, up, deleted (a loopback churned until the
# monitor, subscribed in the background, has seen one add)
"$FWDCTL_BIN" -s "$SOCK" monitor iface >"$T/mon.txt" 2>&1 &
MON_PID=$!
mon_add() { fwdctl iface add lo8 loopback && fwdctl iface del lo8 && grep -q "iface add lo8 loopback" "$T/mon.txt"; }
check "monitor iface: iface add lo8 loopback" wait_for 10 mon_add
fwdctl iface set p0.300 down && fwdctl iface set p0.300 up
mon_seen() { grep -q "iface $1" "$T/mon.txt"; }
check "monitor iface: down" wait_for 5 mon_seen "down p0.300 vlan 300 port p0"
check "monitor iface: up" wait_for 5 mon_seen "up p0.300"
check "monitor iface: del" wait_for 5 mon_seen "del lo8"
kill -INT $MON_PID
wait $MON_PID

check "iface del lo1" fwdctl iface del lo1
expect "lo1 gone" "$(names)" = "lo0 p0 p0.100 p0.200 p0.300"

# reload: p0.100 moves to VLAN 101 (delete + add), lo0 goes, lo2 comes;
# p0.300 (fwdctl's) stays
write_config "  - { name: p0.100, port: p0, vlan: 101 }
  - { name: p0.200, port: p0, vlan: 200, mode: l3, mtu: 1000 }
  - { name: lo2, loopback: true, addresses: [192.0.2.1/32] }"
check "config reload" fwdctl config reload
expect "after reload" "$(names)" = "lo2 p0 p0.100 p0.200 p0.300"
expect "p0.100 is now VLAN 101" "$(field p0.100 vlan)" = 101
expect "with its port's MTU" "$(field p0.100 mtu)" = 1500
expect "p0.200 is l3 now" "$(field p0.200 mode)" = l3
expect "and left br0" "$(members)" = ""
expect "p0.200 MTU 1000" "$(field p0.200 mtu)" = 1000
check "lo0's address moved to lo2" sh -c "'$FWDCTL_BIN' -s '$SOCK' addr list | grep -q 'lo2.*192.0.2.1/32'"
check "lo0's IPv6 address went with it" sh -c "! '$FWDCTL_BIN' -s '$SOCK' addr list | grep -q '2001:db8:ff::1'"
# an l3 VLAN has its port's link-local address, listed under its name
ll_of() { fwdctl -j addr list dev "$1" | json_get "[a['prefix'] for a in d.get('addresses', []) if a['prefix'].startswith('fe80:')][0]"; }
expect "p0.100 has its port's link-local" "$(ll_of p0.100)" = "$(ll_of p0)"
# a VLAN's address on the port's subnet: refused by the rules of ports',
# by --check, config check and the reload alike, at its position
write_config "  - { name: p0.100, port: p0, vlan: 101, addresses: [10.9.0.7/24] }"
expect "a VLAN address on p0's subnet: reload refused" "$(st config reload)" = 1
check "fwd-daemon --check says why" sh -c "'$FWD_DAEMON' --check -c '$T/fwd.yaml' 2>&1 | grep -q 'fwd.yaml:[0-9]*:[0-9]*: interfaces\[0\].addresses\[0\]: subnet 10.9.0.0/24 is already connected on port p0'"
check "config check says the same" sh -c "'$FWDCTL_BIN' -s '$SOCK' config check '$T/fwd.yaml' 2>&1 | grep -q 'interfaces\[0\].addresses\[0\]: subnet 10.9.0.0/24 is already connected on port p0'"
check "iface del p0.100" fwdctl iface del p0.100
check "its link-local went with it" sh -c "! '$FWDCTL_BIN' -s '$SOCK' addr list | grep -q '^p0.100 '"
expect "VLAN 100 is free again" "$(st iface add v100 port p0 vlan 100)" = 0
smoke_done
