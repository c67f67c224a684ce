#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Neighbour policy under an ARP flood: one host on a /16 sends 65,000
# gratuitous ARPs for distinct addresses from one MAC (none may create an
# entry, as Linux with arp_accept=0), then asks for the router's address
# from 4,000 distinct senders (entries are created, stale, but capped by
# dataplane.neigh_max with the least recently used evicted, never h1, to
# which h2 sends traffic meanwhile: workers mark what they forward). A small
# next-hop table makes the point: routes still find room, and forwarding
# still works.
#
#   h1 10.2.0.2/16 --- p0 10.2.0.1 [fwd] p1 10.3.0.1 --- h2 10.3.0.2/24
#   (h1 also holds 10.2.0.3, a gateway the router has not heard of before
#   the flood, and 10.50.0.1/16 on lo: the network behind it)
. "$(dirname "$0")/lib.sh"

CAP=1024
FLOOD_MAC=02:66:00:00:00:01

smoke_init neigh_flood
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.2.0.2/16 10.2.0.1
ns_host h2 v2 10.3.0.2/24 10.3.0.1
ip -n "$(ns h1)" addr add 10.2.0.3/16 dev v1
ip -n "$(ns h1)" addr add 10.50.0.1/16 dev lo

# the ARP policer off: this tests the neighbour table's policy under all of
# the flood (punt_flood_test.sh tests the policer)
cfg=$(DATAPLANE_EXTRA="  nexthops: 2048
  neigh_max: $CAP
  punt_rate_nd: 0" daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.2.0.1/16] }
  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.3.0.1/24] }
EOF
)

counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }
counter_is() { [ "$(counter "$1")" = "$2" ]; }
neighbours() { fwdctl -j status | json_get "d['neighbours']"; }
flood() { ns_exec h1 timeout 30 "$PY" "$SRCDIR/tests/smoke/arp_flood.py" v1 "$FLOOD_MAC" "$@"; }
# settled: the control thread has taken what it will of the flood
settled() {
	local a b
	a=$(counter arp_requests_received)
	sleep 0.5
	b=$(counter arp_requests_received)
	[ "$a" = "$b" ]
}

must daemon_start fw "$cfg"
check "ping h2 -> h1 through the router" ns_exec h2 ping -c 2 -i 0.2 -W 2 10.2.0.2

echo "-- 65,000 gratuitous ARPs for distinct addresses, from one MAC"
start=$(date +%s)
check "the flood was sent" flood garp 10.2.1.0 65000
wait_for 20 settled
n=$(neighbours)
ignored=$(counter arp_gratuitous_ignored)
log "in $(($(date +%s) - start)) s: $ignored ignored, $n neighbours"
expect "gratuitous ARPs created no neighbour ($n)" "$n" -le 4
expect "they were counted as arp_gratuitous_ignored ($ignored)" "$ignored" -ge 1000

echo "-- 4,000 requests for the router's address from distinct senders, while h2 pings h1"
"$FWDCTL_BIN" -s "$SOCK" monitor neigh >"$T/mon.txt" 2>"$T/mon.err" &
SMOKE_PIDS+=($!)
bg h2 ping -q -i 0.05 -c 300 10.2.0.2
sleep 1 # the monitor subscribed, h1's entry forwarding
check "the requests were sent" flood ask 10.2.100.0 4000 10.2.0.1
wait_for 20 settled
# workers mark the neighbours they forward to; those are evicted last
expect "h1's neighbour, in use, was not evicted" \
	"$(grep -c 'neigh del 10\.2\.0\.2 ' "$T/mon.txt")" -eq 0
expect "the monitor saw the flood's evictions" "$(grep -c 'neigh del ' "$T/mon.txt")" -ge 1
n=$(neighbours)
evicted=$(counter neigh_evicted)
expect "neighbours stay within the cap ($n <= $CAP + 4)" "$n" -le $((CAP + 4))
expect "the least recently used were evicted ($evicted)" "$evicted" -ge 1
expect "no new entry was refused ($(counter neigh_table_full))" "$(counter neigh_table_full)" -eq 0

echo "-- routes and forwarding"
check "route add 10.50.0.0/16 via 10.2.0.3 (a new gateway)" fwdctl route add 10.50.0.0/16 via 10.2.0.3
check "ping h2 -> h1 through the router" ns_exec h2 ping -c 2 -i 0.2 -W 2 10.2.0.2
check "ping h2 -> 10.50.0.1 through the new route" ns_exec h2 ping -c 2 -i 0.2 -W 2 10.50.0.1

echo "-- a host claiming the router's address"
check "5 gratuitous ARPs for 10.2.0.1 were sent" sh -c "for i in 1 2 3 4 5; do
	ip netns exec $(ns h1) $PY $SRCDIR/tests/smoke/arp_flood.py v1 $FLOOD_MAC garp 10.2.0.1 1 || exit 1; done"
wait_for 3 counter_is arp_address_conflicts 5
expect "counted as arp_address_conflicts" "$(counter arp_address_conflicts)" -eq 5
expect "logged once" "$(grep -c "$FLOOD_MAC on p0 claims our address 10.2.0.1" "$T/daemon.log")" -eq 1
expect "fwdctl stats has arp_locktime_ignored" "$(counter arp_locktime_ignored)" -ge 0

smoke_done
