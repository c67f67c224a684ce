#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv6 router: two dual-stack hosts in different prefixes routed through the
# daemon. Addresses and DAD states, ping6 through the router and to it
# (global and link-local), traceroute6, path MTU discovery against a lower
# egress MTU, runtime routes (via a global and a link-local gateway,
# blackhole, default, route get/list with -4/-6 and -j, route load of both
# families), config reload of IPv6 routes and addresses, config show.
#
#   h1 2001:db8:61:1::2/64 --- p0 2001:db8:61:1::1 [fwd] p1 2001:db8:61:2::1 --- h2 2001:db8:61:2::2/64
#      10.61.1.2/24               10.61.1.1            10.61.2.1, mtu 1400          10.61.2.2/24, mtu 1400
#                                                               (h2 also holds 2001:db8:61:3::1/64 and
#                                                                2001:db8:61:4::1/64 on lo)
. "$(dirname "$0")/lib.sh"

smoke_init router6
ns_add h1 h2 fw
ns_ipv6 h1 h2
veth h1 v1 fw d1
veth h2 v2 fw d2
ip -n "$(ns h2)" link set v2 mtu 1400
ip -n "$(ns fw)" link set d2 mtu 1400
ns_host h1 v1 10.61.1.2/24 10.61.1.1
ns_host h2 v2 10.61.2.2/24 10.61.2.1
ns_host6 h1 v1 2001:db8:61:1::2/64 2001:db8:61:1::1
ns_host6 h2 v2 2001:db8:61:2::2/64 2001:db8:61:2::1
ip -n "$(ns h2)" -6 addr add 2001:db8:61:3::1/64 dev lo nodad
ip -n "$(ns h2)" -6 addr add 2001:db8:61:4::1/64 dev lo nodad

H1=2001:db8:61:1::2
H2=2001:db8:61:2::2
P0=2001:db8:61:1::1
P1=2001:db8:61:2::1

# write_cfg [EXTRA_ROUTE_LINE] [EXTRA_P1_ADDRESS]: (re)write $T/fwd.yaml
write_cfg() {
	local extra_addr=${2:+, \"$2\"}
	DATAPLANE_EXTRA="  neigh_timeout_s: 30" daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.61.1.1/24, "$P0/64"] }
	  - { name: p1, device: "net_af_packet1,iface=d2", mtu: 1400,
	      addresses: [10.61.2.1/24, "$P1/64"$extra_addr] }
	routes:
	  - { prefix: "2001:db8:61:66::/64", blackhole: true }
	  - { prefix: 10.61.66.0/24, blackhole: true }
	${1:-}
	EOF
}

jctl() { fwdctl -j "$@"; }
drop_reason() { jctl stats | json_get "sum(c['value'] for p in d['ports'] for c in p['drop_reasons'] if c['name']=='$1')"; }
# addr_state PORT PREFIX: its state in `fwdctl -j addr list`, "absent" without it
addr_state() {
	jctl addr list | json_get "next((a.get('state','') for a in d.get('addresses', []) if a['port']=='$1' and a['prefix']=='$2'), 'absent')"
}
addr_is() { [ "$(addr_state "$1" "$2")" = "$3" ]; }
# all_preferred: no IPv6 address of the router tentative (nor duplicate)
all_preferred() {
	[ "$(jctl -6 addr list | json_get "sorted(set(a.get('state','') for a in d['addresses']))")" = "['preferred']" ]
}
route_field() { jctl route get "$1" | json_get "d['route'].get('$2', '')"; }
route_present() { jctl route list | json_get "any(r['prefix']=='$1' for r in d['routes'])"; }
# families FILTER OBJECT: the families of the addresses `fwdctl FILTER -j OBJECT list` shows
families() {
	jctl $1 "$2" list | json_get "' '.join(sorted(set('6' if ':' in (e.get('prefix') or e.get('address')) else '4' for e in d.get('$3', []))))"
}
ping6() { ns_exec "$1" ping -6 -c "${3:-2}" -i 0.2 -W 2 "$2"; }
port_mac() { jctl port show "$1" | json_get "d['mac']"; }
host_mac() { ns_exec "$1" cat "/sys/class/net/$2/address"; }

write_cfg
must daemon_start fw "$T/fwd.yaml"
P0_LL=$(eui64_ll "$(port_mac p0)")
P1_LL=$(eui64_ll "$(port_mac p1)")
H2_LL=$(eui64_ll "$(host_mac h2 v2)")

echo "-- addresses"
check "every address of the router passes DAD (preferred within 5 s)" wait_for 5 all_preferred
expect "p0's link-local $P0_LL (EUI-64 of its MAC) is listed, preferred" \
	"$(addr_state p0 "$P0_LL/64")" = preferred
expect "p1's link-local $P1_LL is listed, preferred" "$(addr_state p1 "$P1_LL/64")" = preferred
expect "p0's global address is preferred" "$(addr_state p0 "$P0/64")" = preferred
expect "addr list shows both families" "$(families "" addr addresses)" = "4 6"
expect "-6 addr list only IPv6" "$(families -6 addr addresses)" = 6
expect "-4 addr list only IPv4" "$(families -4 addr addresses)" = 4
check "addr list (human) has a STATE column" \
	bash -c "$FWDCTL_BIN -s $SOCK -6 addr list | head -1 | grep -Eq '^PORT +ADDRESS +STATE'"
check "addr list (human) shows p1's link-local as preferred" \
	bash -c "$FWDCTL_BIN -s $SOCK -6 addr list | grep -Eq '^p1 +$P1_LL/64 +preferred'"

echo "-- ping6"
check "ping6 h1 -> h2 through the router" ping6 h1 $H2 3
check "ping6 h2 -> h1 through the router" ping6 h2 $H1 3
check "ping6 h1 -> the router's address on the ingress port" ping6 h1 $P0
check "ping6 h1 -> the router's address on the other port" ping6 h1 $P1
check "ping6 h1 -> the router's link-local address ($P0_LL%v1)" ping6 h1 "$P0_LL%v1"
check "ping6 h2 -> the router's link-local address ($P1_LL%v2)" ping6 h2 "$P1_LL%v2"
check "ping (IPv4) still works beside it" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.61.2.2
check "h1 knows the router as a router (NA with R) at the router's MAC" \
	bash -c "ip -n $(ns h1) -6 neigh show $P0 dev v1 | grep -qi '$(port_mac p0).*router'"
ns_exec h1 ping -6 -c 1 -t 1 -W 2 $H2 >"$T/hlim" 2>&1
check "hop limit 1: h1 gets Time exceeded from the router" \
	grep -q "From $P0 icmp_seq=1 Time exceeded: Hop limit" "$T/hlim"

echo "-- traceroute6"
ns_exec h1 timeout 20 traceroute -6 -n -q 1 -w 2 -m 4 $H2 >"$T/trace" 2>&1
expect "traceroute6: the router is hop 1" "$(awk '$1==1 {print $2}' "$T/trace")" = $P0
expect "traceroute6: h2 is hop 2" "$(awk '$1==2 {print $2}' "$T/trace")" = $H2
expect "traceroute6: two hops, nothing else" "$(awk '$1 ~ /^[0-9]+$/' "$T/trace" | wc -l)" -eq 2
ns_exec h1 timeout 20 traceroute -6 -n -q 1 -w 2 -m 4 $P1 >"$T/trace" 2>&1
expect "traceroute6 to the router's far address ends at hop 1 (port unreachable)" \
	"$(awk '$1 ~ /^[0-9]+$/ {print $1, $2}' "$T/trace" | xargs)" = "1 $P1"
ns_exec h1 timeout 20 traceroute -6 -I -n -q 1 -w 2 -m 4 $H2 >"$T/trace" 2>&1
expect "traceroute6 -I (ICMP echo): router, then h2" \
	"$(awk '$1 ~ /^[0-9]+$/ {print $2}' "$T/trace" | xargs)" = "$P0 $H2"
expect "hop limit drops counted as ttl_exceeded" "$(drop_reason ttl_exceeded)" -ge 3

echo "-- path MTU (p1 has MTU 1400)"
mtu0=$(drop_reason mtu)
ns_exec h1 ping -6 -c 1 -W 2 -s 1452 -M do $H2 >"$T/ptb" 2>&1
check "a 1500-byte packet gets Packet too big with mtu=1400 from the router" \
	grep -q "From $P0 icmp_seq=1 Packet too big: mtu=1400" "$T/ptb"
check "h1 learnt the path MTU (ip -6 route get shows mtu 1400)" \
	bash -c "ip -n $(ns h1) -6 route get $H2 | grep -q 'mtu 1400'"
expect "the drop was counted as mtu" "$(drop_reason mtu)" -gt "$mtu0"
check "exactly 1400 bytes pass (ping -s 1352 -M do)" \
	ns_exec h1 ping -6 -c 2 -i 0.2 -W 2 -s 1352 -M do $H2
check "1401 bytes do not (h1 now refuses them itself)" \
	bash -c "! ip netns exec $(ns h1) ping -6 -c 1 -W 2 -s 1353 -M do $H2"
check "a 2000-byte ping is fragmented by h1 to the learnt MTU and goes through" \
	ns_exec h1 ping -6 -c 2 -i 0.2 -W 2 -s 2000 $H2
check "h2 -> h1 large packets go the other way (p0 has MTU 1500)" \
	ns_exec h2 ping -6 -c 2 -i 0.2 -W 2 -s 1352 -M do $H1

echo "-- runtime routes"
ns_exec h1 ping -6 -c 1 -W 2 2001:db8:61:3::1 >"$T/unreach" 2>&1
check "before the route: Destination unreachable: No route from the router" \
	grep -q "From $P0 icmp_seq=1 Destination unreachable: No route" "$T/unreach"
check "route add 2001:db8:61:3::/64 via $H2" fwdctl route add 2001:db8:61:3::/64 via $H2
check "the third prefix is reachable" ping6 h1 2001:db8:61:3::1
check "route get shows the gateway, the port and its neighbour" \
	bash -c "$FWDCTL_BIN -s $SOCK route get 2001:db8:61:3::1 | grep -q 'via $H2 dev p1 neighbour'"
expect "route get -j: prefix" "$(route_field 2001:db8:61:3::1 prefix)" = 2001:db8:61:3::/64
expect "route get -j: via" "$(route_field 2001:db8:61:3::1 via)" = $H2
expect "route get -j: dev" "$(route_field 2001:db8:61:3::1 dev)" = p1
expect "route get -j: the gateway's neighbour is reachable" \
	"$(jctl route get 2001:db8:61:3::1 | json_get "d.get('neighbour_state')")" = reachable
expect "route get of a connected address: the connected prefix" \
	"$(route_field $H1 prefix)" = 2001:db8:61:1::/64
expect "route list has it" "$(route_present 2001:db8:61:3::/64)" = True
expect "route list shows both families" "$(families "" route routes)" = "4 6"
expect "-6 route list only IPv6" "$(families -6 route routes)" = 6
expect "-4 route list only IPv4" "$(families -4 route routes)" = 4
check "-6 route list (human) shows it as static via h2" \
	bash -c "$FWDCTL_BIN -s $SOCK -6 route list | grep -Eq '^2001:db8:61:3::/64 +static +$H2 '"
check "route del 2001:db8:61:3::/64" fwdctl route del 2001:db8:61:3::/64
ns_exec h1 ping -6 -c 1 -W 2 2001:db8:61:3::1 >"$T/unreach" 2>&1
check "after the delete: no route again" grep -q "Destination unreachable: No route" "$T/unreach"
check "route add via a link-local gateway: 2001:db8:61:4::/64 via $H2_LL dev p1" \
	fwdctl route add 2001:db8:61:4::/64 via "$H2_LL" dev p1
check "reachable through the link-local gateway" ping6 h1 2001:db8:61:4::1
expect "route get: via the link-local address" "$(route_field 2001:db8:61:4::1 via)" = "$H2_LL"
expect "route get: dev p1" "$(route_field 2001:db8:61:4::1 dev)" = p1
check_fails "a link-local gateway without dev is refused" \
	fwdctl route add 2001:db8:61:5::/64 via "$H2_LL"
expect "... and not added" "$(route_present 2001:db8:61:5::/64)" = False
fwdctl route add 2001:db8:77::/48 via 2001:db8:99::1 2>"$T/err"
expect "a gateway off every connected prefix: exit 1" "$?" -eq 1
check "... with a message naming it" grep -q "2001:db8:99::1" "$T/err"
fwdctl route add 2001:db8:77::/48 via 10.61.2.2 2>"$T/err"
expect "a gateway of the other family: exit 1 or 2" "$?" -ge 1
expect "... and not added" "$(route_present 2001:db8:77::/48)" = False
fwdctl route add 2001:db8:61:3::1/64 via $H2 >/dev/null 2>&1
expect "a prefix with host bits is a usage error (exit 2)" "$?" -eq 2
bh0=$(drop_reason blackhole)
check_fails "the blackholed prefix (config) gets no answer" ping6 h1 2001:db8:61:66::1 1
expect "... counted as blackhole" "$(drop_reason blackhole)" -gt "$bh0"
check "route add ::/0 via $H2_LL dev p1 (a default route)" fwdctl route add ::/0 via "$H2_LL" dev p1
expect "route get 2001:db8:4242::1 takes the default route" \
	"$(route_field 2001:db8:4242::1 prefix)" = ::/0
check "route del ::/0" fwdctl route del ::/0
printf '%s\n' "10.61.9.0/24 via 10.61.2.2" "2001:db8:61:9::/64 via $H2" \
	"2001:db8:61:a::/64 via $H2_LL dev p1" "2001:db8:61:b::/64 blackhole" >"$T/mixed.txt"
check "route load of a file with both families" fwdctl route load "$T/mixed.txt"
expect "loaded: 10.61.9.0/24" "$(route_present 10.61.9.0/24)" = True
expect "loaded: 2001:db8:61:9::/64 via h2" "$(route_field 2001:db8:61:9::1 via)" = $H2
expect "loaded: 2001:db8:61:a::/64 via h2's link-local" "$(route_field 2001:db8:61:a::1 via)" = "$H2_LL"
expect "loaded: 2001:db8:61:b::/64 blackhole" \
	"$(jctl route get 2001:db8:61:b::1 | json_get "d['route']['type']")" = blackhole
printf '2001:db8:61:c::/64 via %s\n2001:db8:61:zz::/64 via %s\n' $H2 $H2 >"$T/bad.txt"
fwdctl route load "$T/bad.txt" 2>"$T/err"
expect "a bad IPv6 line stops the load with FILE:LINE" "$(cat "$T/err")" = \
	"fwdctl: route load: $T/bad.txt:2: bad prefix: 2001:db8:61:zz::/64 (applied before it: 1 added, 0 replaced)"

echo "-- config reload"
write_cfg "  - { prefix: \"2001:db8:61:8::/64\", via: \"$H2\" }" 2001:db8:61:7::1/64
check "config reload (an IPv6 route and an IPv6 address on p1 added to the file)" \
	fwdctl config reload
expect "the reloaded route is there" "$(route_present 2001:db8:61:8::/64)" = True
check "the reloaded address passes DAD" wait_for 5 addr_is p1 2001:db8:61:7::1/64 preferred
check "h2 pings the new address" ping6 h2 2001:db8:61:7::1
expect "its prefix is connected on p1" "$(route_field 2001:db8:61:7::99 dev)" = p1
write_cfg
kill -HUP "$DAEMON_PID"
check "SIGHUP reload removes the address again" wait_for 5 addr_is p1 2001:db8:61:7::1/64 absent
expect "... and the route" "$(route_present 2001:db8:61:8::/64)" = False
expect "a runtime IPv6 route survives reloads" "$(route_present 2001:db8:61:4::/64)" = True
check "ping6 h1 -> h2 after the reloads" ping6 h1 $H2

echo "-- config show"
fwdctl config show >"$T/running.yaml"
check "config show passes fwd-daemon --check" ns_exec fw "$FWD_DAEMON" --check -c "$T/running.yaml"
check "config show has p0's IPv6 address" grep -q "2001:db8:61:1::1/64" "$T/running.yaml"
shown_route() {
	"$PY" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
r = [r for r in d.get("routes") or [] if str(r.get("prefix")) == sys.argv[2]]
print(" ".join("%s=%s" % (k, r[0].get(k)) for k in ("dev", "prefix", "via")) if r else "absent")' "$T/running.yaml" "$1"
}
expect "config show has the runtime route via a link-local gateway with its dev" \
	"$(shown_route 2001:db8:61:4::/64)" = "dev=p1 prefix=2001:db8:61:4::/64 via=$H2_LL"
check "config show has the IPv6 blackhole" grep -q "2001:db8:61:66::/64" "$T/running.yaml"
check_fails "config show does not list the link-local addresses (they are derived)" \
	grep -q "$P0_LL" "$T/running.yaml"

smoke_done
