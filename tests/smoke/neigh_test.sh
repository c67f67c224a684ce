#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Neighbours (ARP): a router between two hosts on af_packet l3 ports.
# Resolution both ways, the neighbour table as fwdctl shows it, static
# entries, answers to hosts' requests, aging of a silent host, flush, a
# gratuitous ARP announcing a new MAC, a host that never answers, counters.
. "$(dirname "$0")/lib.sh"

smoke_init neigh
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.77.1.2/24 10.77.1.1
ns_host h2 v2 10.77.2.2/24 10.77.2.1

STATIC_IP=10.77.1.50
STATIC_MAC=02:00:00:00:00:50
NEW_MAC=02:77:00:00:01:02

cfg=$(daemon_config <<EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: l3, addresses: [10.77.1.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: l3, addresses: [10.77.2.1/24] }
routes:
  - { prefix: 10.99.0.0/16, via: 10.77.2.2 }
neighbors:
  - { address: $STATIC_IP, mac: "$STATIC_MAC", port: p0 }
EOF
)
sed -i 's/^dataplane:$/dataplane:\n  neigh_timeout_s: 2/' "$cfg"

host_mac() { ip -n "$(ns "$1")" -j link show "$2" | json_get "d[0]['address']"; }
# nfield IP FIELD: a field of IP's entry in `fwdctl -j neigh list`, "absent" without one
nfield() {
	fwdctl -j neigh list |
		json_get "next((str(n.get('$2', '')) for n in d.get('neighbours', []) if n['address'] == '$1'), 'absent')"
}
nstate_is() { [ "$(nfield "$1" state)" = "$2" ]; }
ncount() { fwdctl -j neigh list | json_get "len(d.get('neighbours', []))"; }
counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }
drops() { fwdctl -j stats "$1" | json_get "next((c['value'] for c in d['ports'][0]['drop_reasons'] if c['name'] == '$2'), -1)"; }
ping12() { ns_exec h1 ping -c 3 -i 0.2 -W 2 10.77.2.2; }
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
H1_MAC=$(host_mac h1 v1)
H2_MAC=$(host_mac h2 v2)
P0_MAC=$(fwdctl -j port show p0 | json_get "d['mac']")
req0=$(counter arp_requests_sent)
rep0=$(counter arp_replies_sent)

echo "-- resolution"
check "the gateway of a config route (h2) is resolved at start-up" \
	wait_for 3 nstate_is 10.77.2.2 reachable
check "ping h1 -> h2 through the router (ARP both ways)" ping12
check "h1 is reachable" wait_for 3 nstate_is 10.77.1.2 reachable
check "h2 is reachable" wait_for 3 nstate_is 10.77.2.2 reachable
expect "h1's MAC is $H1_MAC" "$(nfield 10.77.1.2 mac)" = "$H1_MAC"
expect "h2's MAC is $H2_MAC" "$(nfield 10.77.2.2 mac)" = "$H2_MAC"
expect "h1 is on p0" "$(nfield 10.77.1.2 port)" = p0
expect "h2 is on p1" "$(nfield 10.77.2.2 port)" = p1
check "fwdctl -j neigh list is one JSON document" sh -c "$FWDCTL_BIN -s $SOCK -j neigh list | $PY -m json.tool"
check "fwdctl neigh list (human) shows ADDRESS MAC PORT STATE AGE HELD" \
	sh -c "$FWDCTL_BIN -s $SOCK neigh list | head -1 | grep -Eq '^ADDRESS +MAC +PORT +STATE +AGE +HELD$'"
check "neigh list dev p1 shows only h2" \
	sh -c "[ \"\$($FWDCTL_BIN -s $SOCK neigh list dev p1 | tail -n +2 | awk '{print \$1}' | xargs)\" = 10.77.2.2 ]"
expect "the config's static neighbour is permanent" "$(nfield $STATIC_IP state)" = permanent
expect "the static neighbour has its MAC" "$(nfield $STATIC_IP mac)" = "$STATIC_MAC"

echo "-- add / del and refusals"
check "neigh add 10.77.1.60 lladdr 02:00:00:00:00:60 dev p0" \
	fwdctl neigh add 10.77.1.60 lladdr 02:00:00:00:00:60 dev p0
expect "the added neighbour is permanent" "$(nfield 10.77.1.60 state)" = permanent
check "neigh del 10.77.1.60 dev p0" fwdctl neigh del 10.77.1.60 dev p0
expect "the deleted neighbour is gone" "$(nfield 10.77.1.60 state)" = absent
check "off-subnet address refused" \
	refused "10.9.9.9 is not on a connected subnet of p0" \
	fwdctl neigh add 10.9.9.9 lladdr 02:00:00:00:00:61 dev p0
check "unknown port refused" refused "no such port or interface: p9" \
	fwdctl neigh add 10.77.1.61 lladdr 02:00:00:00:00:61 dev p9
check "bad MAC refused" refused "bad MAC address: 02:zz" \
	fwdctl neigh add 10.77.1.61 lladdr 02:zz dev p0
check "multicast MAC refused" refused "bad MAC address: 01:00:5e:00:00:01" \
	fwdctl neigh add 10.77.1.61 lladdr 01:00:5e:00:00:01 dev p0
check "del of an unknown neighbour refused" refused "no neighbour 10.77.1.99 on p0" \
	fwdctl neigh del 10.77.1.99 dev p0
fwdctl neigh add 10.77.1.61 >/dev/null 2>&1
expect "incomplete add is a usage error (exit 2)" "$?" -eq 2
fwdctl neigh frob >/dev/null 2>&1
expect "unknown command is a usage error (exit 2)" "$?" -eq 2

echo "-- answering hosts"
ns_exec h1 ip neigh flush dev v1
check "arping from h1 for the router's address is answered" \
	ns_exec h1 arping -c 2 -w 4 -I v1 10.77.1.1
ns_exec h1 ip neigh flush dev v1
check "ping h1 -> h2 after h1 forgot the router" ping12
check "h1 learnt the router's MAC from our reply" \
	sh -c "ip -n $(ns h1) neigh show 10.77.1.1 | grep -qi '$P0_MAC'"

echo "-- aging of silent hosts"
check "ping h1 -> h2 (both known)" ping12
silence() { ns_exec "$1" sysctl -qw net.ipv4.conf.all.arp_ignore="$3" "net.ipv4.conf.$2.arp_ignore=$3"; }
silence h1 v1 8
silence h2 v2 8
check "h1 goes stale" wait_for 10 nstate_is 10.77.1.2 stale
check "then disappears" wait_for 12 nstate_is 10.77.1.2 absent
check "h2, a route's gateway, goes failed instead" wait_for 15 nstate_is 10.77.2.2 failed
silence h1 v1 0
silence h2 v2 0
expect "aged-out counter moved" "$(counter neigh_aged_out)" -ge 2
check "traffic to the failed gateway resolves it again" wait_for 10 ping12
check "h2 is reachable again" wait_for 3 nstate_is 10.77.2.2 reachable

echo "-- flush"
check "ping h1 -> h2 again" ping12
before=$(ncount)
flushed=$(fwdctl -j neigh flush | json_get "d['flushed']")
expect "neigh flush removed the dynamic entries ($flushed of $before)" "$flushed" -ge 2
expect "h1 is gone" "$(nfield 10.77.1.2 state)" = absent
expect "h2, a route's gateway, is being resolved again instead" "$(nfield 10.77.2.2 state)" != absent
expect "every other entry left is permanent" "$(fwdctl -j neigh list | json_get \
	"' '.join(sorted(set(n['state'] for n in d['neighbours'] if n['address'] != '10.77.2.2')))")" = permanent
check "neigh flush dev p9 refused" refused "no such port or interface: p9" fwdctl neigh flush dev p9

echo "-- gratuitous ARP with a new MAC"
check "ping h1 -> h2 (relearn)" ping12
grat0=$(counter arp_gratuitous_learned)
ip -n "$(ns h1)" link set dev v1 address "$NEW_MAC"
check "arping -U from h1 (unsolicited, new MAC)" ns_exec h1 arping -U -c 2 -w 3 -I v1 10.77.1.2
check "h1's entry has the new MAC" wait_for 3 sh -c "[ \"\$($FWDCTL_BIN -s $SOCK -j neigh list | \
	$PY -c \"import json,sys; print([n['mac'] for n in json.load(sys.stdin)['neighbours'] if n['address']=='10.77.1.2'])\")\" = \"['$NEW_MAC']\" ]"
expect "gratuitous counter moved" "$(counter arp_gratuitous_learned)" -gt "$grat0"
check "ping h1 -> h2 still works" ping12

echo "-- a host that never answers"
nn0=$(drops p0 no_neighbour)
ns_exec h1 ping -c 2 -i 0.3 -W 1 10.77.2.99 >/dev/null 2>&1
check "10.77.2.99 is incomplete, then failed" wait_for 5 nstate_is 10.77.2.99 failed
check "fwdctl neigh list shows its MAC as -" \
	sh -c "$FWDCTL_BIN -s $SOCK neigh list | grep -Eq '^10\.77\.2\.99 +- +p1 +failed '"
check "then removed" wait_for 6 nstate_is 10.77.2.99 absent
expect "its held packets were dropped as no_neighbour" "$(drops p0 no_neighbour)" -gt "$nn0"
expect "a resolution failure was counted" "$(counter neigh_resolution_failures)" -ge 1
check "the failure was logged in summary form" \
	grep -q "neighbour failed to resolve in the last 10 s, e.g. 10.77.2.99 on p1" "$T/daemon.log"

echo "-- counters"
expect "arp_requests_sent moved ($req0 -> $(counter arp_requests_sent))" \
	"$(counter arp_requests_sent)" -gt "$req0"
expect "arp_replies_sent moved ($rep0 -> $(counter arp_replies_sent))" \
	"$(counter arp_replies_sent)" -gt "$rep0"
expect "arp_requests_received counted" "$(counter arp_requests_received)" -gt 0
expect "arp_replies_received counted" "$(counter arp_replies_received)" -gt 0

smoke_done
