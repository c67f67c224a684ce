#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Control-plane policing: while h1 floods the router with packets it must
# punt (TTL 1 through it, and to a destination with no route) as fast as
# one core sends them (build/.../tests/punt_flood), a new host h3 resolves
# the router's address and pings h2 through it, and `fwdctl status`
# answers promptly. The policer drops the excess as policed_ttl and
# policed_no_route; ARP has buckets and a ring of its own.
#
#   h1 10.41.1.2/24 --- p0 10.41.1.1 [fwd] p1 10.41.2.1 --- h2 10.41.2.2/24
#   (the flooder)                          p2 10.41.3.1 --- h3 10.41.3.2/24
# run.sh: alone: its flood takes a CPU, and h3's loss is measured under it
. "$(dirname "$0")/lib.sh"

FLOOD_S=${FLOOD_S:-8}
FLOOD_BIN=$BUILD/tests/punt_flood
MAX_LOSS=20 # per cent of h3's pings
MAX_STATUS_MS=5000 # a lock-out, not a latency: that depends on the machine's load

smoke_init punt_flood
[ -x "$FLOOD_BIN" ] || {
	fail "$FLOOD_BIN is missing (make tests-build)"
	exit 1
}
ns_add h1 h2 h3 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
veth h3 v3 fw d3
ns_host h1 v1 10.41.1.2/24 10.41.1.1
ns_host h2 v2 10.41.2.2/24 10.41.2.1
ns_host h3 v3 10.41.3.2/24 10.41.3.1

cfg=$(DATAPLANE_EXTRA="  punt_rate_error: 1000" daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.41.1.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.41.2.1/24] }
  - { name: p2, device: "net_af_packet2,iface=d3", addresses: [10.41.3.1/24] }
EOF
)

drop_reason() { fwdctl -j stats | json_get "sum(c['value'] for p in d['ports'] for c in p['drop_reasons'] if c['name']=='$1')"; }
router_mac=$(ns_exec fw cat /sys/class/net/d1/address)

must daemon_start fw "$cfg"
check "ping h1 -> h2 through the router (h1 resolved)" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.41.2.2
check "ping h2 -> h1 (h2 resolved)" ns_exec h2 ping -c 2 -i 0.2 -W 2 10.41.1.2

echo "-- $FLOOD_S s of TTL=1 and unroutable packets from h1"
ns_exec h1 "$FLOOD_BIN" v1 "$router_mac" 10.41.1.2 10.41.2.2 203.0.113.9 "$FLOOD_S" \
	>"$T/flood.out" 2>&1 &
flood_pid=$!
sleep 1
# h3 is new: the router has never heard of it, nor it of the router
ns_exec h3 ping -c 20 -i 0.2 -W 1 10.41.2.2 >"$T/ping.out" 2>&1
worst=0
for i in 1 2 3 4 5; do
	a=$(date +%s%N)
	fwdctl status >/dev/null 2>&1 || worst=999999
	ms=$((($(date +%s%N) - a) / 1000000))
	[ "$ms" -gt "$worst" ] && worst=$ms
	sleep 0.1
done
wait "$flood_pid"
read -r sent rate <"$T/flood.out" || true
loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$T/ping.out")
loss=${loss%.*}
log "flood: ${sent:-?} packets sent, ${rate:-?} packets/s; h3's ping loss ${loss:-?}%; fwdctl status at worst ${worst} ms"
expect "the flood was sent (${sent:-0} packets)" "${sent:-0}" -ge 10000
expect "h3 resolved the router and pinged h2 through it (loss ${loss:-100}% <= $MAX_LOSS%)" \
	"${loss:-100}" -le "$MAX_LOSS"
expect "fwdctl status answered within $MAX_STATUS_MS ms (${worst} ms)" "$worst" -le "$MAX_STATUS_MS"
ttl=$(drop_reason policed_ttl)
nr=$(drop_reason policed_no_route)
log "policed_ttl $ttl, policed_no_route $nr, punt_full $(drop_reason punt_full)"
expect "TTL expiries over the rate were policed ($ttl)" "$ttl" -ge 1000
expect "unroutable packets over the rate were policed ($nr)" "$nr" -ge 1000
expect "no ARP was policed" "$(drop_reason policed_arp)" -eq 0
check "policed_ttl is in fwdctl stats" sh -c "$FWDCTL_BIN -s $SOCK stats | grep -q policed_ttl"

echo "-- a reload changes the rates"
sed -i 's/punt_rate_error: 1000/punt_rate_error: 0/' "$T/fwd.yaml"
check "config reload" fwdctl config reload
check "the reload named the change" grep -q "punt_rate_error 1000 -> 0" "$T/daemon.log"

smoke_done
