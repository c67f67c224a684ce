#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# VLAN sub-interfaces: hosts behind a VLAN switch on an 802.1Q trunk to fwd
# (lib_vlan.sh: Linux VLAN devices where the kernel has them, else Open
# vSwitch's userspace datapath), routed between two VLANs of one port and
# between a VLAN and an untagged port, both families (ping, TCP, UDP);
# `fwdctl iface list` (and -j); a VLAN added at run time then reachable,
# deleted then its frames counted as vlan_unknown; a reload adding and
# removing a VLAN interface; a loopback's addresses reached from a VLAN.
#
#   h1 10.30.1.2  2001:db8:30:1::2 --- VLAN 100 ---+
#   h2 10.30.2.2  2001:db8:30:2::2 --- VLAN 200 ---+-- switch ==trunk== p0 [fwd] p1 --- h3
#   h4 10.30.4.2  2001:db8:30:4::2 --- VLAN 300 ---+   (p0: no address,          10.30.3.2
#                                                       untagged: nothing)     2001:db8:30:3::2
#   fwd: p0.100 10.30.1.1, p0.200 10.30.2.1, (p0.300 10.30.4.1: run time /
#        reload), p1 10.30.3.1 untagged, lo0 192.0.2.1/32 2001:db8:ff::1/128
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vlan.sh"

smoke_init vlan
started=$(date +%s%N)
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
ns_add h1 h2 h3 h4 fw
ns_ipv6 h1 h2 h3 h4
must vlan_switch fw d1
must vlan_access h1 v1 100
must vlan_access h2 v2 200
must vlan_access h4 v4 300
veth h3 v3 fw d2
log "VLAN switch: $(vlan_kind), set up in $(ms_since "$started") ms"
for i in 1 2 4 3; do
	ns_host h$i v$i "10.30.$i.2/24" "10.30.$i.1"
	ns_host6 h$i v$i "2001:db8:30:$i::2/64" "2001:db8:30:$i::1"
done

# write_cfg [EXTRA_INTERFACE_LINE]: (re)write $T/fwd.yaml
write_cfg() {
	daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", mode: l3 }
	  - { name: p1, device: "net_af_packet1,iface=d2",
	      addresses: [10.30.3.1/24, "2001:db8:30:3::1/64"] }
	interfaces:
	  - { name: p0.100, port: p0, vlan: 100, addresses: [10.30.1.1/24, "2001:db8:30:1::1/64"] }
	  - { name: p0.200, port: p0, vlan: 200, addresses: [10.30.2.1/24, "2001:db8:30:2::1/64"] }
	  - { name: lo0, loopback: true, addresses: [192.0.2.1/32, "2001:db8:ff::1/128"] }
	${1:-}
	EOF
}

jctl() { fwdctl -j "$@"; }
# drop_reason NAME: summed over everything `fwdctl -j stats` lists (ports, interfaces)
drop_reason() {
	jctl stats | json_get "sum(int(c.get('value', 0)) for k in ('ports', 'ifaces', 'interfaces') for p in d.get(k, []) for c in p.get('drop_reasons', []) if c['name'] == '$1')"
}
# iface FIELD NAME: a field of interface NAME in `fwdctl -j iface list` ("absent" without it)
# ({"ifaces": [{"name", "type", "parent", "vlan", "mode", "admin_up", "link_up", "mtu",
# "mac", "addresses"}]}, cli/iface.c)
iface() {
	jctl iface list | json_get "next((str(i.get('$1', '')) for i in d.get('ifaces', []) if i['name'] == '$2'), 'absent')"
}
iface_addrs() {
	jctl iface list | json_get "' '.join(sorted(next((i.get('addresses', []) for i in d.get('ifaces', []) if i['name'] == '$1'), [])))"
}
all_preferred() {
	[ "$(jctl -6 addr list | json_get "sorted(set(a.get('state', '') for a in d['addresses']))")" = "['preferred']" ]
}
ping4() { ns_exec "$1" ping -c "${3:-2}" -i 0.2 -W 2 "$2"; }
ping6() { ns_exec "$1" ping -6 -c "${3:-2}" -i 0.2 -W 2 "$2"; }
# within SECONDS CMD...: retry CMD (which may itself take seconds) until it
# succeeds or SECONDS have passed (wait_for counts tries, not time)
within() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}
pings_fail() { ! ns_exec "$1" ping -c 2 -i 0.2 -W 1 "$2"; }
# grew REASON BEFORE: the drop reason's count is above BEFORE (h4's ARP
# requests, retried after its ping gave up, may reach fwd only later when
# the switch in between is slow to set up its flows)
grew() { [ "$(drop_reason "$1")" -gt "$2" ]; }
echo_tcp() { ns_exec "$1" timeout 10 "$PY" "$SRCDIR/tests/smoke/echo.py" tcp "$2" 7007; }
echo_udp() { ns_exec "$1" timeout 10 "$PY" "$SRCDIR/tests/smoke/echo.py" udp "$2" 7007; }

write_cfg
must daemon_start fw "$T/fwd.yaml"
check "every IPv6 address of the router passes DAD (on the VLANs too)" wait_for 8 all_preferred
bg h2 "$PY" "$SRCDIR/tests/smoke/echo.py" serve 7007 60
bg h3 "$PY" "$SRCDIR/tests/smoke/echo.py" serve 7007 60

echo "-- fwdctl iface list"
expect "p0.100 is a vlan interface" "$(iface type p0.100)" = vlan
expect "p0.100's parent is p0" "$(iface parent p0.100)" = p0
expect "p0.100 carries VLAN 100" "$(iface vlan p0.100)" = 100
expect "p0.200 carries VLAN 200" "$(iface vlan p0.200)" = 200
expect "p0.100's addresses (both families)" \
	"$(iface_addrs p0.100 | tr ' ' '\n' | grep -c -e '^10.30.1.1/24$' -e '^2001:db8:30:1::1/64$')" = 2
expect "p0.100 has p0's MAC" "$(iface mac p0.100)" = "$(iface mac p0)"
expect "lo0 is a loopback" "$(iface type lo0)" = loopback
expect "p1 is listed as a port" "$(iface type p1)" = port
check "iface list (human) shows p0.100 on p0 with VLAN 100" \
	bash -c "$FWDCTL_BIN -s $SOCK iface list | grep -Eq '^p0\.100 +vlan +p0 +100 '"

# routed FROM TO N: host FROM reaches host hN (10.30.N.2, 2001:db8:30:N::2)
# by ping, TCP and UDP in both families
routed() {
	local a4=10.30.$3.2 a6=2001:db8:30:$3::2
	check "ping $1 -> $2 ($a4)" ping4 "$1" "$a4" 3
	check "ping6 $1 -> $2 ($a6)" ping6 "$1" "$a6" 3
	check "TCP $1 -> $2" echo_tcp "$1" "$a4"
	check "UDP $1 -> $2" echo_udp "$1" "$a4"
	check "TCP over IPv6 $1 -> $2" echo_tcp "$1" "$a6"
	check "UDP over IPv6 $1 -> $2" echo_udp "$1" "$a6"
}

echo "-- between two VLANs of one port (p0.100 <-> p0.200)"
routed h1 h2 2
check "ping h1 -> the router on its VLAN (10.30.1.1)" ping4 h1 10.30.1.1
check "ping6 h1 -> the router on the other VLAN (2001:db8:30:2::1)" ping6 h1 2001:db8:30:2::1

echo "-- between a VLAN and an untagged port (p0.100 <-> p1)"
routed h1 h3 3
check "ping6 h3 -> h1 (untagged -> VLAN 100)" ping6 h3 2001:db8:30:1::2
check "ping h3 -> h2 (untagged -> VLAN 200)" ping4 h3 10.30.2.2

echo "-- loopback lo0"
check "ping h1 -> lo0's 192.0.2.1 (from a VLAN)" ping4 h1 192.0.2.1
check "ping6 h1 -> lo0's 2001:db8:ff::1" ping6 h1 2001:db8:ff::1
check "ping h3 -> lo0's 192.0.2.1 (untagged)" ping4 h3 192.0.2.1

echo "-- a VLAN added and deleted at run time (p0.300)"
unknown0=$(drop_reason vlan_unknown)
check "before it exists h4 (VLAN 300) reaches nothing" pings_fail h4 10.30.3.2
check "and its frames are counted as vlan_unknown" wait_for 5 grew vlan_unknown "$unknown0"
check "fwdctl iface add p0.300 port p0 vlan 300" fwdctl iface add p0.300 port p0 vlan 300
check "fwdctl addr add 10.30.4.1/24 dev p0.300" fwdctl addr add 10.30.4.1/24 dev p0.300
check "fwdctl addr add 2001:db8:30:4::1/64 dev p0.300" fwdctl addr add 2001:db8:30:4::1/64 dev p0.300
expect "iface list shows p0.300 with VLAN 300" "$(iface vlan p0.300)" = 300
check "ping h4 -> h3 through the new VLAN" within 5 ping4 h4 10.30.3.2 1
check "ping6 h4 -> h1 (VLAN 300 -> VLAN 100)" within 5 ping6 h4 2001:db8:30:1::2 1
check "fwdctl iface set p0.300 down" fwdctl iface set p0.300 down
check "h4 reaches nothing while p0.300 is down" pings_fail h4 10.30.3.2
check "fwdctl iface set p0.300 up" fwdctl iface set p0.300 up
check "ping h4 -> h3 once it is up again" within 5 ping4 h4 10.30.3.2 1
check "fwdctl iface del p0.300" fwdctl iface del p0.300
expect "iface list no longer shows p0.300" "$(iface vlan p0.300)" = absent
expect "its addresses went with it" \
	"$(jctl addr list | json_get "sum(1 for a in d['addresses'] if a['port'] == 'p0.300')")" = 0
unknown1=$(drop_reason vlan_unknown)
check "h4 reaches nothing once p0.300 is gone" pings_fail h4 10.30.3.2
check "VLAN 300's frames counted as vlan_unknown again" wait_for 5 grew vlan_unknown "$unknown1"
check_fails "iface add of a VLAN taken (p0 VLAN 100 again) is refused" \
	fwdctl iface add p0.101 port p0 vlan 100
check_fails "iface add with VLAN 4095 is refused" fwdctl iface add p0.4095 port p0 vlan 4095
check_fails "iface add on an unknown port is refused" fwdctl iface add p9.5 port p9 vlan 5
check_fails "iface add with a 16-character name is refused" \
	fwdctl iface add p0.aaaaaaaaaaaaa port p0 vlan 7

echo "-- reload adds and removes a VLAN interface"
write_cfg '  - { name: p0.300, port: p0, vlan: 300, addresses: [10.30.4.1/24, "2001:db8:30:4::1/64"] }'
check "config reload with p0.300 in the file" fwdctl config reload
expect "iface list shows the reloaded p0.300" "$(iface vlan p0.300)" = 300
check "ping h4 -> h2 through the reloaded VLAN" within 5 ping4 h4 10.30.2.2 1
check "ping6 h4 -> h3 through it" within 8 ping6 h4 2001:db8:30:3::2 1
check "p0.100 and p0.200 kept working across the reload" ping4 h1 10.30.2.2
write_cfg
check "config reload without p0.300" fwdctl config reload
expect "iface list no longer shows p0.300" "$(iface vlan p0.300)" = absent
check "h4 reaches nothing once the reload removed p0.300" pings_fail h4 10.30.2.2
check "h1 -> h3 still routed" ping4 h1 10.30.3.2

echo "-- VLAN list as JSON"
check "iface list -j parses, every interface has a type, an MTU and its admin state" bash -c \
	"$FWDCTL_BIN -s $SOCK -j iface list | $PY -c 'import json,sys; d=json.load(sys.stdin); assert all(k in i for i in d[\"ifaces\"] for k in (\"name\", \"type\", \"mtu\", \"admin_up\"))'"
[ "$SMOKE_FAIL" -eq 0 ] || vlan_switch_log 10
log "took $(ms_since "$started") ms"
smoke_done
