#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Soak: SOAK_SECONDS (default 600) of everything at once against the
# optimised build (build/): TCP both ways, route churn over the RPC, ARP
# churn (neighbour flushes, a host changing its MAC, addresses coming and
# going), config reloads alternating two files, CLI polling. The daemon's
# RSS and mempool use are sampled every SAMPLE_S; at the end RSS must be
# flat (last-quarter median within 5% of the second-quarter one, the first
# quarter being warm-up), the mempool back at its baseline, every packet
# accounted for (rx + created == tx + drops + consumed), and the daemon
# must stop cleanly. `make soak`; not part of `make check`.
#
#   h1 10.31.1.2 --- p0 [fwd] p1 --- h2 10.31.2.2 (10.31.3.1 on lo: the churned route)
#                         p2 --- h3 10.31.4.2..21 (changes MAC, addresses come and go)
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$SRCDIR/build}
. "$SRCDIR/tests/smoke/lib.sh"

SOAK_SECONDS=${SOAK_SECONDS:-600}
SAMPLE_S=${SAMPLE_S:-5}
RATE=${SOAK_RATE:-50M} # per TCP direction: the point is duration, not speed

smoke_init soak
ns_add h1 h2 h3 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
veth h3 v3 fw d3
ns_host h1 v1 10.31.1.2/24 10.31.1.1
ns_host h2 v2 10.31.2.2/24 10.31.2.1
ip -n "$(ns h2)" addr add 10.31.3.1/24 dev lo
ns_host h3 v3 10.31.4.2/24 10.31.4.1

# write_cfg A|B: two files that differ in routes and dataplane knobs only
write_cfg() {
	local extra routes
	if [ "$1" = A ]; then
		extra="  neigh_timeout_s: 20"
		routes="  - { prefix: 198.51.100.0/24, blackhole: true }
  - { prefix: 10.250.0.0/16, via: 10.31.2.2 }"
	else
		extra="  neigh_timeout_s: 15
  icmp_rate: 50"
		routes="  - { prefix: 203.0.113.0/24, blackhole: true }
  - { prefix: 10.251.0.0/16, via: 10.31.4.2 }"
	fi
	DATAPLANE_EXTRA="$extra" daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.31.1.1/24] }
	  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.31.2.1/24] }
	  - { name: p2, device: "net_af_packet2,iface=d3", addresses: [10.31.4.1/24] }
	routes:
	$routes
	EOF
}

json() { fwdctl -j "$1" | json_get "$2"; }
in_use() { json status "d['mempool']['in_use']"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$DAEMON_PID/status"; }

# every packet accounted for: "rx created tx drops consumed" summed over ports
totals() {
	json stats "' '.join(str(sum(int(p.get(k, 0)) for p in d['ports'])) for k in
		('rx_packets', 'created', 'tx_packets', 'drops', 'consumed'))"
}

# loop SECONDS_BETWEEN CMD...: run CMD until the soak ends, in the background
loop() {
	local pause=$1
	shift
	(while [ "$(date +%s)" -lt "$END" ]; do
		"$@" >/dev/null 2>&1
		sleep "$pause"
	done) &
	SMOKE_PIDS+=($!)
}

reload_alternating() {
	local n=$((RELOADS_DONE++ % 2))
	[ $n -eq 0 ] && write_cfg B || write_cfg A
	if fwdctl config reload >/dev/null 2>&1; then echo ok; else echo refused; fi >>"$T/reloads"
}

arp_churn() {
	local mac
	fwdctl neigh flush
	mac=$(printf '02:33:00:%02x:%02x:%02x' $((RANDOM % 256)) $((RANDOM % 256)) $((RANDOM % 256)))
	ns_exec h3 ip link set v3 address "$mac"
	ns_exec h3 arping -q -U -c 1 -I v3 10.31.4.2
	# addresses come and go: the router resolves, fails, holds and drops for them
	local a=$((3 + RANDOM % 19))
	ns_exec h3 ip addr add "10.31.4.$a/24" dev v3 2>/dev/null ||
		ns_exec h3 ip addr del "10.31.4.$a/24" dev v3
	echo ok >>"$T/arpchurn"
}

ping_sweep() {
	local a
	for a in $(seq 2 21); do
		ns_exec h1 ping -c 1 -W 1 "10.31.4.$a"
	done
}

poll_cli() {
	for c in "stats" "status" "route list" "neigh list" "stats workers" "port list"; do
		# shellcheck disable=SC2086
		fwdctl $c && fwdctl -j $c
	done
	echo ok >>"$T/polls"
}

write_cfg A
must daemon_start fw "$T/fwd.yaml"
check "routed before the soak" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.2.2
check "third port before the soak" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.4.2
fwdctl route add 10.31.3.0/24 via 10.31.2.2
sleep 1
BASE_IN_USE=$(in_use)
log "soak: ${SOAK_SECONDS} s; baseline: RSS $(rss_kb) kB, mempool in use $BASE_IN_USE"

START=$(date +%s)
END=$((START + SOAK_SECONDS))
RELOADS_DONE=0
: >"$T/samples"
ns_exec h2 iperf3 -s -D -p 5201 >/dev/null
ns_exec h1 iperf3 -s -D -p 5202 >/dev/null
sleep 0.3
ns_exec h1 iperf3 -c 10.31.3.1 -p 5201 -t "$SOAK_SECONDS" -b "$RATE" --bidir -J \
	>"$T/tcp.json" 2>&1 &
TCP_PID=$!
ns_exec h2 iperf3 -c 10.31.1.2 -p 5202 -t "$SOAK_SECONDS" -u -b 5M -l 600 -J \
	>"$T/udp.json" 2>&1 &
UDP_PID=$!
SMOKE_PIDS+=("$TCP_PID" "$UDP_PID")
"$PY" "$SRCDIR/tests/smoke/rpc_churn.py" "$SOCK" "$SOAK_SECONDS" 20 >"$T/churn.out" 2>&1 &
CHURN_PID=$!
SMOKE_PIDS+=("$CHURN_PID")
bg h2 ping -i 0.5 -W 1 -w "$SOAK_SECONDS" 10.31.4.2
loop 2 arp_churn
loop 1 ping_sweep
loop 1 poll_cli
(while [ "$(date +%s)" -lt "$END" ]; do
	reload_alternating >/dev/null 2>&1
	sleep 3
done) &
SMOKE_PIDS+=($!)

# samples: seconds RSS_kB in_use
while [ "$(date +%s)" -lt "$END" ]; do
	echo "$(($(date +%s) - START)) $(rss_kb) $(in_use)" >>"$T/samples"
	sleep "$SAMPLE_S"
done
wait "$TCP_PID"
TCP_RC=$?
wait "$UDP_PID"
UDP_RC=$?
wait "$CHURN_PID"
CHURN_RC=$?
for p in "${SMOKE_PIDS[@]}"; do
	kill -TERM "$p" 2>/dev/null
done
at_baseline() { [ "$(in_use)" = "$BASE_IN_USE" ]; }
wait_for 60 at_baseline # held packets fail within seconds
END_IN_USE=$(in_use)
read -r RX CREATED TX DROPS CONSUMED <<<"$(totals)"
echo "$(($(date +%s) - START)) $(rss_kb) $END_IN_USE" >>"$T/samples"

# -- the verdict
report() { "$PY" "$SRCDIR/tests/soak/report.py" "$@"; }
report samples "$T/samples" >"$T/report"
head -n -1 "$T/report" | sed 's/^/  /'
read -r _ _ Q2 Q4 DRIFT < <(tail -1 "$T/report")
log "packets: rx $RX + created $CREATED = $((RX + CREATED));" \
	"tx $TX + drops $DROPS + consumed $CONSUMED = $((TX + DROPS + CONSUMED))"
log "drops by reason: $(fwdctl -j stats | report drops)"
log "load: $(wc -l <"$T/reloads") reloads, $(wc -l <"$T/arpchurn") ARP churn rounds," \
	"$(wc -l <"$T/polls") CLI polling rounds"
if [ "$TCP_RC" -eq 0 ]; then
	pass "TCP both ways for ${SOAK_SECONDS} s: $(report tcp "$T/tcp.json")"
else
	fail "TCP both ways for ${SOAK_SECONDS} s (iperf3 exit $TCP_RC): $(tail -3 "$T/tcp.json")"
fi
expect "UDP stream ran (iperf3 exit $UDP_RC)" "$UDP_RC" -eq 0
expect "route churn: $(tail -1 "$T/churn.out") changes, none refused" "$CHURN_RC" -eq 0
expect "RSS flat: last-quarter median within 5% of the second quarter's (${DRIFT}%)" \
	"$(awk -v a="$Q4" -v b="$Q2" 'BEGIN { print (a <= b * 1.05) ? 1 : 0 }')" -eq 1
expect "mempool back at its baseline ($BASE_IN_USE -> $END_IN_USE mbufs in use)" \
	"$END_IN_USE" -eq "$BASE_IN_USE"
expect "every packet accounted for: rx + created == tx + drops + consumed" \
	"$((RX + CREATED))" -eq "$((TX + DROPS + CONSUMED))"
check "still routes after the soak" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.2.2
check "reloads never refused" bash -c "! grep -q refused $T/reloads"
smoke_done
