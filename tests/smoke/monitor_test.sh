#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# fwdctl monitor: a router (p0, p1) and a two-port bridge (p2, p3). One
# `monitor -j` client records everything while the test causes each kind of
# event (admin down/up, address and route changes, neighbours resolved,
# added and deleted, FDB learn, move, age and flush, config reloads ok and
# refused, TTL drops and policed punts); each must arrive with its fields.
# A filtered text client sees only what it asked for. Then a client that
# never reads while 50,000 routes load: the daemon keeps answering, that
# client is told what it lost, a normal client at the same time loses
# nothing. Ctrl-C ends a monitor with 0, a daemon that goes with 3.
. "$(dirname "$0")/lib.sh"

smoke_init monitor
ns_add h1 h2 h3 h4 fw
for i in 1 2 3 4; do
	must veth h$i v$i fw d$i
	ip -n "$(ns h$i)" link set v$i address 02:00:00:00:00:0$i
done
ns_host h1 v1 10.0.0.2/24 10.0.0.1
ns_host h2 v2 10.1.0.2/24 10.1.0.1
for i in 3 4; do
	ip -n "$(ns h$i)" addr add 10.2.0.$i/24 dev v$i
	# no ARP probes to keep the FDB alive while it should age
	must ns_exec h$i sysctl -qw net.ipv4.neigh.v$i.base_reachable_time_ms=600000 \
		net.ipv4.neigh.v$i.delay_first_probe_time=600
done
MAC2=02:00:00:00:00:02 MAC3=02:00:00:00:00:03

cfg=$(DATAPLANE_EXTRA="  punt_rate_error: 1" daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: l3, addresses: [10.0.0.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: l3, addresses: [10.1.0.1/24] }
  - { name: p2, device: "net_af_packet2,iface=d3", mode: bridge, bridge: br0 }
  - { name: p3, device: "net_af_packet3,iface=d4", mode: bridge, bridge: br0 }
bridges:
  - { name: br0, mac_aging_s: 2 }
EOF
)
must daemon_start fw "$cfg"

# monitor_bg FILE ARGS...: a monitor in the background ($! is its pid)
monitor_bg() {
	local out=$1
	shift
	"$FWDCTL_BIN" -s "$SOCK" monitor "$@" >"$out" 2>"$out.err" &
}
# seen EXPR: a line of mon.json where the python expression over the event e holds
seen() {
	"$PY" - "$T/mon.json" "$1" <<-'EOF'
	import json, sys
	for line in open(sys.argv[1]):
	    e = json.loads(line)
	    if eval(sys.argv[2]):
	        sys.exit(0)
	sys.exit(1)
	EOF
}
# event DESC EXPR: wait (bounded) for an event
event() { check "$1" wait_for 10 seen "$2"; }

monitor_bg "$T/mon.json" -j
MON_PID=$!
monitor_bg "$T/mon.txt" route config
TXT_PID=$!
# both are subscribed once a change made now reaches them
sync_monitors() {
	fwdctl route add 10.254.0.0/24 blackhole && fwdctl route del 10.254.0.0/24 &&
		seen 'e["object"] == "route" and e["prefix"] == "10.254.0.0/24" and e["action"] == "del"' &&
		grep -q "route del 10.254.0.0/24" "$T/mon.txt"
}
must wait_for 20 sync_monitors

echo "-- port, addr, route"
fwdctl port set p1 down && fwdctl port set p1 up
event "port: p1 admin down" 'e["object"] == "port" and e["port"] == "p1" and e["action"] == "admin-down"'
event "port: p1 admin up" 'e["object"] == "port" and e["port"] == "p1" and e["action"] == "admin-up"'
fwdctl addr add 10.5.0.1/24 dev p1 && fwdctl route add 10.8.0.0/16 via 10.5.0.2 &&
	fwdctl addr del 10.5.0.1/24 dev p1
event "addr add 10.5.0.1/24 dev p1 origin rpc" \
	'e["object"] == "addr" and e["action"] == "add" and e["prefix"] == "10.5.0.1/24" and e["port"] == "p1" and e["origin"] == "rpc"'
event "addr del 10.5.0.1/24 dev p1" 'e["object"] == "addr" and e["action"] == "del" and e["prefix"] == "10.5.0.1/24"'
event "route del 10.8.0.0/16 via 10.5.0.2: its gateway's subnet went with the address" \
	'e["object"] == "route" and e["action"] == "del" and e["prefix"] == "10.8.0.0/16" and e["via"] == "10.5.0.2"'
fwdctl route add 10.9.0.0/16 via 10.1.0.2
fwdctl route replace 10.9.0.0/16 via 10.0.0.2 dev p0
fwdctl route del 10.9.0.0/16
event "route add 10.9.0.0/16 via 10.1.0.2 origin rpc" \
	'e["object"] == "route" and e["action"] == "add" and e["prefix"] == "10.9.0.0/16" and e["via"] == "10.1.0.2" and e["origin"] == "rpc"'
event "route replace: via 10.0.0.2 dev p0" \
	'e["action"] == "replace" and e["prefix"] == "10.9.0.0/16" and e["via"] == "10.0.0.2" and e["port"] == "p0"'
event "route del 10.9.0.0/16 origin rpc" \
	'e["action"] == "del" and e["prefix"] == "10.9.0.0/16" and e["origin"] == "rpc"'
check "text: route add line" grep -q "route add 10.9.0.0/16 via 10.1.0.2 origin rpc$" "$T/mon.txt"
check "text: route replace line" grep -q "route replace 10.9.0.0/16 via 10.0.0.2 dev p0 origin rpc$" "$T/mon.txt"
check "text: a timestamp first" grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} route del 10.9.0.0/16" "$T/mon.txt"

echo "-- neighbours"
check "ping h1 -> h2" ns_exec h1 ping -c 2 -i 0.2 -W 2 10.1.0.2
event "neigh 10.1.0.2 dev p1 lladdr $MAC2 reachable" \
	'e["object"] == "neigh" and e["prefix"] == "10.1.0.2" and e["port"] == "p1" and e["state"] == "reachable" and e["lladdr"] == "'$MAC2'"'
event "neigh 10.1.0.2 was incomplete first" 'e["object"] == "neigh" and e["prefix"] == "10.1.0.2" and e["state"] == "incomplete"'
fwdctl neigh add 10.0.0.50 lladdr 02:00:00:00:00:50 dev p0 && fwdctl neigh del 10.0.0.50 dev p0
event "neigh add: 10.0.0.50 permanent" \
	'e["prefix"] == "10.0.0.50" and e["state"] == "permanent" and e["lladdr"] == "02:00:00:00:00:50"'
event "neigh del 10.0.0.50" 'e["prefix"] == "10.0.0.50" and e["action"] == "del"'

echo "-- fdb"
check "ping h3 -> h4 through the bridge" ns_exec h3 ping -c 2 -i 0.2 -W 2 10.2.0.4
event "fdb learn $MAC3 bridge br0 port p2" \
	'e["object"] == "fdb" and e["action"] == "learn" and e["lladdr"] == "'$MAC3'" and e["bridge"] == "br0" and e["port"] == "p2"'
event "fdb: $MAC3 ages out (mac_aging_s 2)" 'e["object"] == "fdb" and e["action"] == "age" and e["lladdr"] == "'$MAC3'"'
ns_exec h3 ping -c 1 -W 2 10.2.0.4 >/dev/null
ip -n "$(ns h4)" link set v4 address $MAC3 # h3's MAC now behind p3
ns_exec h4 ping -c 1 -W 1 10.2.0.3 >/dev/null
event "fdb move $MAC3 to p3 from p2" \
	'e["object"] == "fdb" and e["action"] == "move" and e["lladdr"] == "'$MAC3'" and e["port"] == "p3" and e["from_port"] == "p2"'
fwdctl bridge flush br0 >/dev/null
event "fdb flush $MAC3" 'e["object"] == "fdb" and e["action"] == "flush" and e["lladdr"] == "'$MAC3'"'

echo "-- config"
sed -i 's/mac_aging_s: 2/mac_aging_s: 3/' "$cfg"
check "config reload" fwdctl config reload
event "config reload ok, 1 change" 'e["object"] == "config" and e["action"] == "ok" and e["count"] >= 1'
cp "$cfg" "$T/good.yaml"
echo "bogus_section: 1" >>"$cfg"
check_fails "config reload of a bad file" fwdctl config reload
event "config reload refused, saying why" \
	'e["object"] == "config" and e["action"] == "refused" and "bogus_section" in e["reason"]'
cp "$T/good.yaml" "$cfg"
check "text: config lines" grep -Eq "config reload ok: [0-9]+ changes$" "$T/mon.txt"
check "text: config refused line" grep -q "config reload refused: .*bogus_section" "$T/mon.txt"
check "text: a filtered monitor shows no other object" \
	bash -c "! grep -Ev ' (route|config) ' '$T/mon.txt'"

echo "-- drops"
ns_exec h1 timeout 3 ping -c 300 -i 0.002 -t 1 -W 1 -q 10.1.0.2 >/dev/null 2>&1
event "drops p0: ttl_exceeded in the last second" \
	'e["object"] == "drops" and e["port"] == "p0" and e["reason"] == "ttl_exceeded" and e["count"] > 0'
event "drops p0: policed_ttl (the punt policer)" \
	'e["object"] == "drops" and e["port"] == "p0" and e["reason"] == "policed_ttl" and e["count"] > 0'
check "no more than one drops event per port and reason a second" "$PY" - "$T/mon.json" <<-'EOF'
	import collections, json, sys
	n = collections.Counter()
	for line in open(sys.argv[1]):
	    e = json.loads(line)
	    if e["object"] == "drops":
	        n[(e["port"], e["reason"], e["time_ns"] // 1000000000)] += 1
	sys.exit(max(n.values()) > 1)
	EOF

echo "-- a slow client"
bg fw "$PY" "$SRCDIR/tests/smoke/monitor_slow.py" "$SOCK" "$T/go"
SLOW_LOG=$T/bg.$$.$((${#SMOKE_PIDS[@]} - 1)).log
must wait_for 10 grep -q subscribed "$SLOW_LOG"
monitor_bg "$T/big.txt" route
BIG_PID=$!
big_synced() {
	fwdctl route add 10.253.0.0/24 blackhole && fwdctl route del 10.253.0.0/24 &&
		grep -q "route del 10.253.0.0/24" "$T/big.txt"
}
must wait_for 20 big_synced
"$PY" -c 'for i in range(50000): print("10.%d.%d.0/24 via 10.1.0.2" % (40 + i // 256, i % 256))' >"$T/routes.txt"
fwdctl route load "$T/routes.txt" >"$T/load.out" 2>&1 &
LOAD_PID=$!
slowest=0
while kill -0 $LOAD_PID 2>/dev/null; do
	t0=$(date +%s%N)
	fwdctl status >/dev/null || break
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ $ms -gt $slowest ] && slowest=$ms
	sleep 0.2
done
wait $LOAD_PID
expect "route load of 50,000 routes" "$?" -eq 0
expect "fwdctl status answered throughout (slowest ${slowest} ms; 5 s is a lock-out)" $slowest -lt 5000
touch "$T/go"
check "the slow client is told it lost events" wait_for 15 grep -q "^lost [1-9]" "$SLOW_LOG"
log "slow client: $(cat "$SLOW_LOG" | tail -1)"
big_all() { [ "$(grep -c 'route add .* via 10.1.0.2 origin load$' "$T/big.txt")" -eq 50000 ]; }
check "the normal client got all 50,000 route adds" wait_for 20 big_all
check "... and lost none" bash -c "! grep -q 'events lost' '$T/big.txt'"

echo "-- end"
gone() { ! kill -0 "$1" 2>/dev/null; }
kill -INT $MON_PID $BIG_PID
must wait_for 5 gone $MON_PID
wait $MON_PID
expect "Ctrl-C ends a monitor with 0" "$?" -eq 0
wait $BIG_PID
if daemon_stop; then
	pass "daemon stopped cleanly (exit 0, no sanitizer report)"
else
	fail "daemon stopped cleanly (exit 0, no sanitizer report)"
fi
must wait_for 5 gone $TXT_PID
wait $TXT_PID
expect "a monitor whose daemon goes exits with 3" "$?" -eq 3
check "... naming the socket" grep -q "$SOCK" "$T/mon.txt.err"
