#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Learning bridge: hosts h1, h2, h3 (and h4, silent until it takes over h3's
# MAC) on one bridge of four af_packet ports. First run: all pairs ping,
# known unicast is no longer flooded, the FDB lists each MAC on its port, a
# MAC moving to another port is followed, aging and size follow a reload
# (membership changes are refused), iperf3, flush, CLI errors. Then, reloaded
# to a 16-entry FDB, a MAC flood fills it (counted, nothing breaks), and
# reloaded to a 3 s mac_aging_s, every entry ages out once the hosts are silent.
. "$(dirname "$0")/lib.sh"

smoke_init bridge
ns_add h1 h2 h3 h4 fw # without IPv6: idle hosts are silent
for i in 1 2 3 4; do
	must veth h$i v$i fw d$i
	ip -n "$(ns h$i)" link set v$i address 02:00:00:00:00:0$i
	# and without ARP reachability probes, which would move the counters the
	# test reads (a probe from h3 sends h1's answer out of p3) and relearn a
	# flushed or aging FDB: a resolved neighbour stays reachable, and one
	# learnt from the peer's request (stale) is not probed when used. Per
	# interface: net.ipv4.neigh.default exists only in the first namespace.
	must ns_exec h$i sysctl -qw net.ipv4.neigh.v$i.base_reachable_time_ms=600000 \
		net.ipv4.neigh.v$i.delay_first_probe_time=600
done
for i in 1 2 3; do
	ip -n "$(ns h$i)" addr add 10.2.0.$i/24 dev v$i
done
MAC1=02:00:00:00:00:01 MAC2=02:00:00:00:00:02 MAC3=02:00:00:00:00:03

# config AGING FDB_MAX [P4_BRIDGE [EXTRA_BRIDGE_LINE]]: (re)writes the config file
config() {
	daemon_config <<-EOF
	ports:
	  - { name: p1, device: "net_af_packet1,iface=d1", mode: bridge, bridge: br0 }
	  - { name: p2, device: "net_af_packet2,iface=d2", mode: bridge, bridge: br0 }
	  - { name: p3, device: "net_af_packet3,iface=d3", mode: bridge, bridge: br0 }
	  - { name: p4, device: "net_af_packet4,iface=d4", mode: bridge, bridge: ${3:-br0} }
	bridges:
	  - { name: br0, mac_aging_s: $1, fdb_max: $2 }
	${4:-}
	EOF
}

br() { fwdctl -j bridge list | json_get "d['bridges'][0]['$1']"; }
tx() { fwdctl -j stats "$1" | json_get "d['ports'][0]['tx_packets']"; }
# fdb_port MAC: the port the FDB has MAC on, or "none"
fdb_port() {
	fwdctl -j bridge fdb br0 |
		json_get "next((e['port'] for e in d.get('entries', []) if e['mac'].lower() == '$1'), 'none')"
}
fdb_size() { fwdctl -j bridge fdb | json_get "len(d.get('entries', []))"; }
ping_ok() { ns_exec "$1" ping -c 2 -i 0.2 -W 2 "$2"; }
ping_quiet() { ns_exec "$1" ping -c "$3" -i 0.1 -W 2 -q "$2" >/dev/null; }
fdb_empty() { [ "$(fdb_size)" = 0 ]; }
fdb_is_full() { [ "$(br fdb_size)" = 16 ]; }
fdb_human() { fwdctl bridge fdb br0 | grep -iE "$1 +$2 +[0-9]+s"; }
now() { date +%s.%N; }
elapsed() { "$PY" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$1" "$(now)"; }

learn_and_forward() {
	local fl tx3 a b
	expect "bridge list: br0 with 4 members" "$(fwdctl -j bridge list |
		json_get "' '.join(d['bridges'][0]['members'])")" = "p1 p2 p3 p4"
	for a in 1 2 3; do
		for b in 1 2 3; do
			[ $a = $b ] || check "ping h$a -> h$b through the bridge" ping_ok h$a 10.2.0.$b
		done
	done
	expect "fdb: h1's MAC on p1" "$(fdb_port $MAC1)" = p1
	expect "fdb: h2's MAC on p2" "$(fdb_port $MAC2)" = p2
	expect "fdb: h3's MAC on p3" "$(fdb_port $MAC3)" = p3
	expect "bridge list: 3 MACs learned" "$(br learned)" = 3
	check "fdb: human output shows MAC, port and age" fdb_human $MAC1 p1

	# known unicast goes to one port: neither flooded nor seen by h3's port
	ping_quiet h1 10.2.0.2 1
	fl=$(br flooded) tx3=$(tx p3)
	check "ping h1 -> h2, 20 echoes" ping_quiet h1 10.2.0.2 20
	expect "unicast h1 <-> h2 not flooded (flooded stays $fl)" "$(br flooded)" = "$fl"
	expect "p3 sent nothing meanwhile (tx stays $tx3)" "$(tx p3)" = "$tx3"
	expect "flooding happened before learning" "$fl" -gt 0
	expect "stats: p1 counts received bytes" "$(fwdctl -j stats p1 | json_get "d['ports'][0]['rx_bytes']")" -gt 0
}

move_mac() {
	# h4 takes over h3's MAC and address; h3 goes away
	ip -n "$(ns h3)" link set v3 down
	ip -n "$(ns h4)" link set v4 address $MAC3
	ip -n "$(ns h4)" addr add 10.2.0.3/24 dev v4
	# the first frames may still go to p3 until the move is learned: retry
	check "h4 (with h3's MAC) pings h1" wait_for 10 ping_ok h4 10.2.0.1
	expect "fdb follows h3's MAC to p4" "$(fdb_port $MAC3)" = p4
	expect "bridge list counts the move" "$(br moved)" -ge 1
	check "ping h1 -> 10.2.0.3 reaches h4 on p4" wait_for 10 ping_ok h1 10.2.0.3
}

cli_errors() {
	local rc
	"$FWDCTL_BIN" -s "$SOCK" bridge fdb nosuch >/dev/null 2>"$T/err"
	rc=$?
	expect "bridge fdb nosuch: exit 1" "$rc" = 1
	check "bridge fdb nosuch: says why" grep -q "no such bridge: nosuch" "$T/err"
	"$FWDCTL_BIN" -s "$SOCK" bridge flush nosuch >/dev/null 2>&1
	expect "bridge flush nosuch: exit 1" "$?" = 1
	for args in "fdb br0 extra" "list extra" "flush a b" "bogus" ""; do
		# shellcheck disable=SC2086
		"$FWDCTL_BIN" -s "$SOCK" bridge $args >/dev/null 2>&1
		expect "bridge $args: usage error, exit 2" "$?" = 2
	done
}

reload() {
	local out
	config "$@" >/dev/null
	out=$(fwdctl config reload 2>&1)
	echo "$out" | sed 's/^/    | /'
	echo "$out" >"$T/reload.out"
}

reload_live() {
	# a larger fdb_max builds a bigger table under traffic, behind RCU
	reload 200 20000 br0 "  - { name: br1 }"
	check "reload: br1 added" grep -q "bridge br1 added" "$T/reload.out"
	expect "reload: br0 mac_aging_s follows" "$(br mac_aging_s)" = 200
	expect "reload: br0 fdb_max follows" "$(br fdb_max)" = 20000
	expect "reload: learned MACs stay" "$(br fdb_size)" = 3
	expect "reload: h2's MAC still on p2" "$(fdb_port $MAC2)" = p2
	check "reload: ping h1 -> h2 after the table grew" ping_ok h1 10.2.0.2
	reload 200 20000 br1 "  - { name: br1 }"
	check "reload: moving p4 to br1 is refused" grep -q "port p4: moving to bridge br1 needs a restart" "$T/reload.out"
	expect "reload: p4 still in br0" "$(fwdctl -j bridge list | json_get "' '.join(d['bridges'][0]['members'])")" = "p1 p2 p3 p4"
	reload 300 16384
	check "reload: br1 removed" grep -q "bridge br1 removed" "$T/reload.out"
	expect "reload: one bridge left" "$(fwdctl -j bridge list | json_get "len(d['bridges'])")" = 1
}

echo "-- learning, forwarding, moves, reload"
must daemon_start fw "$(config 300 16384)"
learn_and_forward
reload_live
move_mac
iperf_tcp "iperf3 TCP 2 s through the bridge" 10.2.0.2
expect "bridge flush br0: flushes the 3 entries" "$(fwdctl -j bridge flush br0 | json_get "d['flushed']")" = 3
expect "fdb empty after flush" "$(fdb_size)" = 0
cli_errors

echo "-- full FDB (fdb_max 16 by reload), then aging (mac_aging_s 3 by reload)"
reload 300 16
expect "reload: br0 fdb_max 16" "$(br fdb_max)" = 16
check "ping h1 -> h2" ping_ok h1 10.2.0.2
# 200 frames from random unicast MACs: more than the FDB holds
ns_exec h1 "$PY" -c "
from scapy.all import Ether, IP, UDP, sendp
import random
pk = [Ether(src='02:%02x:%02x:%02x:%02x:%02x' % tuple(random.randrange(256) for _ in range(5)),
            dst='ff:ff:ff:ff:ff:ff') / IP(dst='10.2.0.99') / UDP() for _ in range(200)]
sendp(pk, iface='v1', verbose=False)" || fail "scapy MAC flood"
check "fdb fills up to fdb_max (16)" wait_for 10 fdb_is_full
expect "fdb_full counts the MACs not learned" "$(br fdb_full)" -gt 0
check "ping h1 -> h2 still works with a full FDB" ping_ok h1 10.2.0.2
start=$(now)
reload 3 16
expect "reload: br0 mac_aging_s 3" "$(br mac_aging_s)" = 3
check "every entry ages out after mac_aging_s of silence" wait_for 30 fdb_empty
took=$(elapsed "$start")
expect "not before mac_aging_s: emptied ${took}s after the last frame" "${took%.*}" -ge 2
expect "bridge list counts the aged entries" "$(br aged)" -ge 16
# aging back to 300 s: what is learnt next must not age out (and count in
# `aged`) while the checks below read it, however slow the machine
reload 300 16
expect "reload: br0 mac_aging_s 300 again" "$(br mac_aging_s)" = 300
check "learning resumes once there is room: ping h1 -> h2" ping_ok h1 10.2.0.2
expect "fdb: h2's MAC learned again on p2" "$(fdb_port $MAC2)" = p2
check "stats clear" fwdctl stats clear
expect "stats clear restarts the bridge counters too (flooded, aged)" \
	"$(br flooded)-$(br aged)" = "0-0"
smoke_done
