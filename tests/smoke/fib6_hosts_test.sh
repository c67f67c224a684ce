#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Neighbour host routes against routes in the IPv6 FIB: an on-link host
# (h1) answers the router's solicitations for every address of its /64
# while h2 scans that /64 through the router, so each address becomes a
# resolved neighbour with a /128. With few groups, the routes' pool must
# still take a /48 by fwdctl and a /56 from FPM (dataplane.fib6_neigh_tbl8s
# apart); with the pools shared (fib6_neigh_tbl8s: 0, the old way) the
# neighbours leave the routes nothing.
#
#   h1 2001:db8:61:1::2/64 --- p0 ::1 [fwd] p1 2001:db8:61:2::1 --- h2 ::2/64
. "$(dirname "$0")/lib.sh"

SCAN=600
FPM=127.0.0.1:2620

smoke_init fib6_hosts
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_ipv6 h1 h2
ns_host6 h1 v1 2001:db8:61:1::2/64 2001:db8:61:1::1
ns_host6 h2 v2 2001:db8:61:2::2/64 2001:db8:61:2::1

start() {
	local cfg
	cfg=$(DATAPLANE_EXTRA="  fib6_tbl8s: 256
  fib6_neigh_tbl8s: $1
  neigh_max: 2048" daemon_config <<EOF
  fpm: "$FPM"
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: ["2001:db8:61:1::1/64"] }
  - { name: p1, device: "net_af_packet1,iface=d2", addresses: ["2001:db8:61:2::1/64"] }
EOF
)
	must daemon_start fw "$cfg"
}

neighbours() { fwdctl -j status | json_get "d['neighbours']"; }
counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), 0)"; }
origin() { fwdctl -j route list | json_get "([r.get('origin') for r in d['routes'] if r['prefix']=='$1'] + ['none'])[0]"; }
settled() {
	local a b
	a=$(neighbours)
	sleep 0.5
	b=$(neighbours)
	[ "$a" = "$b" ]
}

# scan_and_add: the scan answered, then the routes; prints "neighbours /48 /56"
scan_and_add() {
	local n r48=added r56
	bg h1 timeout 30 "$PY" "$SRCDIR/tests/smoke/ndp_scan.py" answer v1 2001:db8:61:1::/64 25
	sleep 0.5
	ns_exec h2 timeout 30 "$PY" "$SRCDIR/tests/smoke/ndp_scan.py" scan 2001:db8:61:1::/64 $SCAN
	wait_for 20 settled
	n=$(neighbours)
	fwdctl route add 2001:db9:1::/48 via 2001:db8:61:1::2 >"$T/r48" 2>&1 || r48=refused
	ns_exec fw timeout 20 "$PY" "$SRCDIR/tests/smoke/fpm_send.py" "$FPM" \
		"add 2001:db9:2::/56 via 2001:db8:61:1::2 proto 186" >/dev/null 2>&1
	wait_for 3 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | grep -c 2001:db9:2::/56)\" -gt 0 ]"
	r56=$(origin 2001:db9:2::/56)
	sleep 0.2 # a reclaim tick: the counters
	echo "$n $r48 $r56 $(counter fib6_neigh_hosts_refused_no_room)"
}

echo "-- pools shared (fib6_neigh_tbl8s: 0): what the routes got before"
start 0
read -r n r48 r56 nr < <(scan_and_add)
log "$n neighbours; fwdctl /48: $r48 ($(cat "$T/r48")); FPM /56: origin $r56; $(counter fib6_routes_refused_no_room) route and $nr neighbour /128 adds refused for room"
expect "the scan made resolved neighbours ($n)" "$n" -ge 300
expect "a route was refused: FIB full ($r48, $r56)" "$r48$r56" != addedbgp
daemon_stop

echo "-- neighbours in a pool of their own (fib6_neigh_tbl8s: 256)"
start 256
read -r n r48 r56 nr < <(scan_and_add)
log "$n neighbours; fwdctl /48: $r48; FPM /56: origin $r56; $(counter fib6_routes_refused_no_room) route and $nr neighbour /128 adds refused for room"
expect "neighbours beyond their pool were counted ($nr)" "$nr" -ge 1
expect "the scan made resolved neighbours ($n)" "$n" -ge 300
expect "fwdctl route add of a /48 is accepted" "$r48" = added
expect "zebra's /56 is installed (origin bgp)" "$r56" = bgp
check "ping h2 -> h1 through the router" ns_exec h2 ping -6 -c 2 -i 0.2 -W 2 2001:db8:61:1::2
daemon_stop
smoke_done
