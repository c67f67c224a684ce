#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv6 neighbours and router advertisements with real Linux hosts: NDP
# entries as `fwdctl -6 neigh list` shows them (states, MACs, ports, -4/-6
# filters), static IPv6 neighbours (config and neigh add/del, refusals), a
# host that never answers, DAD against a host that has the address, and
# `ra: true`: a host with accept_ra configures itself (SLAAC) from the
# router's advertisements and routes through it.
#
#   h1 2001:db8:62:1::2/64 --- p0 2001:db8:62:1::1 [fwd] p1 2001:db8:62:2::1 --- h2 2001:db8:62:2::2/64
#                                                   p2 2001:db8:62:5::1, ra: true --- h3 (SLAAC)
. "$(dirname "$0")/lib.sh"

smoke_init ndp6
ns_add h1 h2 h3 fw
ns_ipv6 h1 h2 h3
# h3 takes its address and default route from the router's advertisements
ns_exec h3 sysctl -qw net.ipv6.conf.all.accept_ra=2 net.ipv6.conf.default.accept_ra=2 \
	net.ipv6.conf.default.autoconf=1 net.ipv6.conf.default.addr_gen_mode=0
veth h1 v1 fw d1
veth h2 v2 fw d2
veth h3 v3 fw d3
ns_host6 h1 v1 2001:db8:62:1::2/64 2001:db8:62:1::1
ns_host6 h2 v2 2001:db8:62:2::2/64 2001:db8:62:2::1
ip -n "$(ns h2)" -6 addr add 2001:db8:62:2::99/64 dev v2 nodad # the address DAD will find taken

H1=2001:db8:62:1::2
H2=2001:db8:62:2::2
STATIC=2001:db8:62:1::50
STATIC_MAC=02:00:00:00:62:50

cfg=$(daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.62.1.1/24, "2001:db8:62:1::1/64"] }
  - { name: p1, device: "net_af_packet1,iface=d2", addresses: ["2001:db8:62:2::1/64"] }
  - { name: p2, device: "net_af_packet2,iface=d3", addresses: ["2001:db8:62:5::1/64"], ra: true }
routes:
  - { prefix: "2001:db8:62:99::/64", via: "$H2" }
neighbors:
  - { address: "$STATIC", mac: "$STATIC_MAC", port: p0 }
  - { address: 10.62.1.50, mac: "02:00:00:00:62:51", port: p0 }
EOF
)

jctl() { fwdctl -j "$@"; }
host_mac() { ns_exec "$1" cat "/sys/class/net/$2/address"; }
port_mac() { jctl port show "$1" | json_get "d['mac']"; }
# nfield IP FIELD: a field of IP's entry in `fwdctl -j -6 neigh list`, "absent" without one
nfield() {
	jctl -6 neigh list |
		json_get "next((str(n.get('$2', '')) for n in d.get('neighbours', []) if n['address'] == '$1'), 'absent')"
}
nstate_is() { [ "$(nfield "$1" state)" = "$2" ]; }
nstate_in() { case " $2 " in *" $(nfield "$1" state) "*) return 0 ;; esac; return 1; }
addr_state() {
	jctl addr list | json_get "next((a.get('state','') for a in d.get('addresses', []) if a['port']=='$1' and a['prefix']=='$2'), 'absent')"
}
addr_is() { [ "$(addr_state "$1" "$2")" = "$3" ]; }
all_preferred() {
	[ "$(jctl -6 addr list | json_get "sorted(set(a.get('state','') for a in d['addresses']))")" = "['preferred']" ]
}
ping6() { ns_exec "$1" ping -6 -c "${3:-2}" -i 0.2 -W 2 "$2"; }
counter() { jctl stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }
# refused EXPECTED-MESSAGE CMD...: fwdctl must exit 1 and print the message
refused() {
	local msg=$1 rc
	shift
	"$@" >"$T/refused.out" 2>&1
	rc=$?
	cat "$T/refused.out"
	[ "$rc" -eq 1 ] && grep -qF "$msg" "$T/refused.out"
}

must daemon_start fw "$cfg"
check "every address of the router passes DAD" wait_for 5 all_preferred
H1_MAC=$(host_mac h1 v1)
H2_MAC=$(host_mac h2 v2)
H1_LL=$(eui64_ll "$H1_MAC")
P0_LL=$(eui64_ll "$(port_mac p0)")
P2_LL=$(eui64_ll "$(port_mac p2)")

echo "-- entries"
check "the config route's gateway (h2) is resolved at start-up" wait_for 5 nstate_is $H2 reachable
check "ping6 h1 -> h2 through the router (NDP both ways)" ping6 h1 $H2 3
expect "h2 is reachable right after the ping" "$(nfield $H2 state)" = reachable
check "h1 has an entry in an iproute2 state (stale, delay, probe or reachable)" \
	nstate_in $H1 "reachable stale delay probe"
expect "h1's MAC is $H1_MAC" "$(nfield $H1 mac)" = "$H1_MAC"
expect "h2's MAC is $H2_MAC" "$(nfield $H2 mac)" = "$H2_MAC"
expect "h1 is on p0" "$(nfield $H1 port)" = p0
expect "h2 is on p1" "$(nfield $H2 port)" = p1
check "ping6 h1 -> the router's link-local address" ping6 h1 "$P0_LL%v1"
check "h1's link-local address has an entry on p0" wait_for 3 bash -c \
	"[ \"\$($FWDCTL_BIN -s $SOCK -j -6 neigh list | $PY -c 'import json,sys; print(next((n[\"port\"] for n in json.load(sys.stdin)[\"neighbours\"] if n[\"address\"]==\"$H1_LL\"), \"absent\"))')\" = p0 ]"
expect "the config's static IPv6 neighbour is permanent" "$(nfield $STATIC state)" = permanent
expect "... with its MAC" "$(nfield $STATIC mac)" = "$STATIC_MAC"
check "fwdctl -j -6 neigh list is one JSON document" \
	sh -c "$FWDCTL_BIN -s $SOCK -j -6 neigh list | $PY -m json.tool"
check "-6 neigh list (human) shows h2 with its MAC, port and state" \
	sh -c "$FWDCTL_BIN -s $SOCK -6 neigh list | grep -Eq '^$H2 +$H2_MAC +p1 +reachable '"
check "-6 neigh list has no IPv4 entry" \
	sh -c "! $FWDCTL_BIN -s $SOCK -6 neigh list | tail -n +2 | awk '{print \$1}' | grep -q '^10\\.'"
check "-4 neigh list has no IPv6 entry" \
	sh -c "! $FWDCTL_BIN -s $SOCK -4 neigh list | tail -n +2 | awk '{print \$1}' | grep -q :"
check "neigh list (both) has both" \
	sh -c "$FWDCTL_BIN -s $SOCK neigh list | grep -q '^10.62.1.50 ' && $FWDCTL_BIN -s $SOCK neigh list | grep -q '^$STATIC '"
fwdctl -4 neigh list dev p1 >"$T/empty" 2>&1
expect "an empty list (-4 neigh list dev p1: p1 has no IPv4) exits 0" "$?" -eq 0
check "... and prints the header alone, nothing on stderr" \
	sh -c "cat $T/empty; [ \$(wc -l <$T/empty) -eq 1 ] && grep -Eq '^ADDRESS +MAC +PORT +STATE +AGE +HELD$' $T/empty"
check "-6 neigh list dev p1 shows only p1's" \
	sh -c "[ \"\$($FWDCTL_BIN -s $SOCK -6 neigh list dev p1 | tail -n +2 | awk '{print \$3}' | sort -u | xargs)\" = p1 ]"

echo "-- add / del and refusals"
check "neigh add 2001:db8:62:1::60 lladdr 02:00:00:00:62:60 dev p0" \
	fwdctl neigh add 2001:db8:62:1::60 lladdr 02:00:00:00:62:60 dev p0
expect "the added neighbour is permanent" "$(nfield 2001:db8:62:1::60 state)" = permanent
check "neigh del 2001:db8:62:1::60 dev p0" fwdctl neigh del 2001:db8:62:1::60 dev p0
expect "the deleted neighbour is gone" "$(nfield 2001:db8:62:1::60 state)" = absent
check "a link-local neighbour: neigh add fe80::60 lladdr 02:00:00:00:62:61 dev p0" \
	fwdctl neigh add fe80::60 lladdr 02:00:00:00:62:61 dev p0
expect "... permanent on p0" "$(nfield fe80::60 state) $(nfield fe80::60 port)" = "permanent p0"
check "... and deleted" fwdctl neigh del fe80::60 dev p0
check "an address off p0's prefixes is refused" \
	refused "2001:db8:99::1" fwdctl neigh add 2001:db8:99::1 lladdr 02:00:00:00:62:62 dev p0
check "a multicast address is refused" \
	refused "ff02::5" fwdctl neigh add ff02::5 lladdr 02:00:00:00:62:62 dev p0
check "the router's own address is refused" \
	refused "2001:db8:62:1::1" fwdctl neigh add 2001:db8:62:1::1 lladdr 02:00:00:00:62:62 dev p0
check "del of an unknown neighbour refused" \
	refused "no neighbour 2001:db8:62:1::99 on p0" fwdctl neigh del 2001:db8:62:1::99 dev p0

echo "-- the router answers hosts' solicitations"
ns_exec h1 ip -6 neigh flush dev v1
check "ping6 h1 -> h2 after h1 forgot the router" ping6 h1 $H2
check "h1 learnt the router's MAC and that it is a router" \
	sh -c "ip -n $(ns h1) -6 neigh show 2001:db8:62:1::1 | grep -qi '$(port_mac p0).*router'"

echo "-- a host that never answers"
ns_exec h1 ping -6 -c 1 -W 5 2001:db8:62:2::77 >"$T/unreach" 2>&1
check "h1 gets Destination unreachable: Address unreachable" \
	grep -q "Address unreachable" "$T/unreach"
check "2001:db8:62:2::77 is failed, then removed" wait_for 8 nstate_is 2001:db8:62:2::77 absent

echo "-- DAD against a host that has the address (h2 holds 2001:db8:62:2::99)"
check "addr add 2001:db8:62:2::99/64 dev p1" fwdctl addr add 2001:db8:62:2::99/64 dev p1
check "h2 defends it: duplicate" wait_for 5 addr_is p1 2001:db8:62:2::99/64 duplicate
ns_exec h1 ping -6 -c 1 -W 5 2001:db8:62:2::99 >"$T/dup" 2>&1
check "a packet for it from h1 reaches h2, or Address unreachable comes back (as Linux); no black hole" \
	grep -Eq "bytes from 2001:db8:62:2::99|Destination unreachable: Address unreachable" "$T/dup"
check "addr del 2001:db8:62:2::99/64 dev p1" fwdctl addr del 2001:db8:62:2::99/64 dev p1
check "addr add 2001:db8:62:2::98/64 dev p1 (nobody has it)" fwdctl addr add 2001:db8:62:2::98/64 dev p1
expect "tentative at first" "$(addr_state p1 2001:db8:62:2::98/64)" = tentative
check "then preferred" wait_for 5 addr_is p1 2001:db8:62:2::98/64 preferred
check "and answers h2" ping6 h2 2001:db8:62:2::98
check "addr del 2001:db8:62:2::98/64 dev p1" fwdctl addr del 2001:db8:62:2::98/64 dev p1

echo "-- router advertisements (p2, ra: true) and SLAAC"
H3_MAC=$(host_mac h3 v3)
H3_SLAAC=$("$PY" -c 'import ipaddress, sys
m = bytes.fromhex(sys.argv[1].replace(":", ""))
print(ipaddress.IPv6Address(bytes.fromhex("20010db800620005") + bytes([m[0] ^ 2, m[1], m[2], 0xff, 0xfe]) + m[3:]))' "$H3_MAC")
# h3 solicits once its link comes up again
ip -n "$(ns h3)" link set v3 down
ip -n "$(ns h3)" link set v3 up
slaac_ok() {
	ip -n "$(ns h3)" -6 addr show dev v3 scope global | grep -q "$H3_SLAAC/64" &&
		! ip -n "$(ns h3)" -6 addr show dev v3 | grep -q tentative
}
check "h3 configures $H3_SLAAC/64 from the router's prefix (SLAAC, within 20 s)" wait_for 20 slaac_ok
check "... as a dynamic (autoconfigured) address" \
	sh -c "ip -n $(ns h3) -6 addr show dev v3 | grep -A1 '$H3_SLAAC/64' | grep -q dynamic"
check "h3's default route is via the router's link-local $P2_LL (proto ra)" \
	sh -c "ip -n $(ns h3) -6 route show default | grep -q 'via $P2_LL dev v3 proto ra'"
check "h3 has the on-link prefix route from the advertisement (it expires)" \
	sh -c "ip -n $(ns h3) -6 route show; ip -n $(ns h3) -6 route show 2001:db8:62:5::/64 | grep -q 'dev v3 proto kernel .*expires'"
check "h3 pings h2 through the router from its SLAAC address" \
	ns_exec h3 ping -6 -c 2 -i 0.2 -W 2 -I "$H3_SLAAC" $H2
check "h1 -> h3's SLAAC address through the router" ping6 h1 "$H3_SLAAC"

smoke_done
