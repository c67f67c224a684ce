#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ECMP: a route over two gateways on two ports spreads flows
# over both, one flow always on one path; a gateway that does not answer
# ARP/NDP is skipped once it failed; IPv6 too; config lists and reload;
# unreachable, prohibit and dev routes.
#
#   h1 10.41.1.2 --- p0 [fwd] p1 10.41.2.1 --- g1 10.41.2.2 (10.41.9.1 on lo)
#                             p2 10.41.3.1 --- g2 10.41.3.2 (10.41.9.1 on lo)
. "$(dirname "$0")/lib.sh"

smoke_init ecmp
ns_add h1 g1 g2 fw
ns_ipv6 h1 g1 g2
veth h1 v1 fw d1
veth g1 v2 fw d2
veth g2 v3 fw d3
ns_host h1 v1 10.41.1.2/24 10.41.1.1
ns_host g1 v2 10.41.2.2/24 10.41.2.1
ns_host g2 v3 10.41.3.2/24 10.41.3.1
ns_host6 h1 v1 2001:db8:41:1::2/64 2001:db8:41:1::1
ns_host6 g1 v2 2001:db8:41:2::2/64 2001:db8:41:2::1
ns_host6 g2 v3 2001:db8:41:3::2/64 2001:db8:41:3::1
for g in g1 g2; do
	ip -n "$(ns $g)" addr add 10.41.9.1/24 dev lo
	ip -n "$(ns $g)" -6 addr add 2001:db8:41:9::1/64 dev lo nodad
	ns_exec $g sysctl -qw net.ipv6.conf.lo.disable_ipv6=0 2>/dev/null || true
done

write_cfg() {
	daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.41.1.1/24, "2001:db8:41:1::1/64"] }
	  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.41.2.1/24, "2001:db8:41:2::1/64"] }
	  - { name: p2, device: "net_af_packet2,iface=d3", addresses: [10.41.3.1/24, "2001:db8:41:3::1/64"] }
	routes:
	  - { prefix: 10.41.9.0/24, via: [10.41.2.2, 10.41.3.2] }
	  - { prefix: "2001:db8:41:9::/64", via: ["2001:db8:41:2::2", "2001:db8:41:3::2"] }
	${1:-}
	EOF
}

tx() { fwdctl -j stats | json_get "[p['tx_packets'] for p in d['ports'] if p['name']=='$1'][0]"; }
nexthops() { fwdctl -j route list | json_get "' '.join(h['via'] for r in d['routes'] if r['prefix']=='$1' for h in r.get('nexthops', []))"; }
# udp_flows DST N [SPORT]: N datagrams from h1 to DST:9, each from its own
# source port (or all from SPORT)
udp_flows() {
	ns_exec h1 "$PY" - "$@" <<-'EOF'
	import socket, sys
	dst, n = sys.argv[1], int(sys.argv[2])
	fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
	for i in range(n):
	    s = socket.socket(fam, socket.SOCK_DGRAM)
	    s.bind(('', int(sys.argv[3]) if len(sys.argv) > 3 else 20000 + i))
	    s.sendto(b'x' * 32, (dst, 9))
	    s.close()
	EOF
}

write_cfg
must daemon_start fw "$T/fwd.yaml"

expect "route list shows both IPv4 next hops" "$(nexthops 10.41.9.0/24)" = "10.41.2.2 10.41.3.2"
expect "route list shows both IPv6 next hops" "$(nexthops 2001:db8:41:9::/64)" = \
	"2001:db8:41:2::2 2001:db8:41:3::2"
check "ping through the ECMP route (resolves both gateways)" \
	ns_exec h1 ping -c 4 -i 0.2 -W 1 10.41.9.1
check "ping6 through the ECMP route" ns_exec h1 ping -6 -c 4 -i 0.2 -W 2 2001:db8:41:9::1
# the gateways' neighbours resolve with the first packets; then count
udp_flows 10.41.9.1 40 >/dev/null 2>&1
sleep 0.5
a1=$(tx p1) a2=$(tx p2)
udp_flows 10.41.9.1 200
sleep 0.5
b1=$(tx p1) b2=$(tx p2)
log "200 IPv4 flows: p1 +$((b1 - a1)), p2 +$((b2 - a2))"
expect "IPv4 flows leave by p1" "$((b1 - a1))" -ge 40
expect "IPv4 flows leave by p2" "$((b2 - a2))" -ge 40

a1=$(tx p1) a2=$(tx p2)
udp_flows 10.41.9.1 100 33333
sleep 0.5
b1=$(tx p1) b2=$(tx p2)
log "one flow, 100 packets: p1 +$((b1 - a1)), p2 +$((b2 - a2))"
expect "one flow takes one path" "$(( (b1 - a1 >= 100 && b2 - a2 < 5) || (b2 - a2 >= 100 && b1 - a1 < 5) ))" = 1

udp_flows 2001:db8:41:9::1 40 >/dev/null 2>&1
sleep 0.5
a1=$(tx p1) a2=$(tx p2)
udp_flows 2001:db8:41:9::1 200
sleep 0.5
b1=$(tx p1) b2=$(tx p2)
log "200 IPv6 flows: p1 +$((b1 - a1)), p2 +$((b2 - a2))"
expect "IPv6 flows leave by p1" "$((b1 - a1))" -ge 40
expect "IPv6 flows leave by p2" "$((b2 - a2))" -ge 40

# -- a gateway that never answers: skipped once its resolution failed
check "route replace with a gateway nobody answers for" \
	fwdctl route replace 10.41.9.0/24 via 10.41.2.2 via 10.41.3.99
udp_flows 10.41.9.1 100 >/dev/null 2>&1 # some flows wait for 10.41.3.99, which fails
check "the silent gateway's resolution failed" wait_for 15 \
	bash -c "$FWDCTL_BIN -s $SOCK neigh list | grep -q '10.41.3.99 .*failed'"
a1=$(tx p1) a2=$(tx p2)
udp_flows 10.41.9.1 200
sleep 0.5
b1=$(tx p1) b2=$(tx p2)
log "after the failure, 200 flows: p1 +$((b1 - a1)), p2 +$((b2 - a2))"
expect "every flow goes to the live gateway" "$((b1 - a1))" -ge 200

# -- config lists, reload, route types
write_cfg "  - { prefix: 10.41.70.0/24, unreachable: true }
  - { prefix: 10.41.71.0/24, prohibit: true }
  - { prefix: 10.41.72.0/24, dev: p2 }"
check "reload with unreachable, prohibit and dev routes" fwdctl config reload
expect "reload put the two-gateway route back" "$(nexthops 10.41.9.0/24)" = "10.41.2.2 10.41.3.2"
ns_exec h1 ping -c 1 -W 1 10.41.70.1 >"$T/u" 2>&1
check "unreachable route: ICMP host unreachable" grep -q "Destination Host Unreachable" "$T/u"
ns_exec h1 ping -c 1 -W 1 10.41.71.1 >"$T/p" 2>&1
check "prohibit route: ICMP administratively prohibited" \
	grep -qi "Packet filtered\|prohibited" "$T/p"
fwdctl config show >"$T/show"
check "config show writes the via list" grep -q "via:$" "$T/show"
check "config show writes unreachable" grep -q "unreachable: true" "$T/show"
check_fails "a gateway given twice is refused" fwdctl route add 10.41.80.0/24 via 10.41.2.2 via 10.41.2.2
check_fails "seventeen next hops are refused" fwdctl route add 10.41.81.0/24 \
	$(for i in $(seq 1 17); do echo via 10.41.2.$((i + 10)); done)
check "fwdctl route add with three next hops" \
	fwdctl route add 10.41.82.0/24 via 10.41.2.2 via 10.41.3.2 via 10.41.2.5
expect "route get shows every next hop" \
	"$(fwdctl route get 10.41.82.1 | grep -o via | wc -l)" -eq 3
check "route del of the ECMP route" fwdctl route del 10.41.82.0/24

smoke_done
