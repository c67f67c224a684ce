#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A bridge port's quota of learned MACs (ports[].mac_max): h1 sends from
# 3,000 MAC addresses on p1 (mac_max 8), then h2 and h3, new on p2 and p3,
# talk: they are learned (the 64-entry FDB is not full), their unicast is
# not flooded, and the MACs p1 was refused count in bridge_mac_max_refused.
# Without the quota the same flood fills the FDB.
#
#   h1 (3,000 MACs) --- p1 [br0] p2 --- h2 10.2.0.2
#                               p3 --- h3 10.2.0.3
. "$(dirname "$0")/lib.sh"

smoke_init bridge_macmax
ns_add h1 h2 h3 fw
for i in 1 2 3; do
	must veth h$i v$i fw d$i
	ip -n "$(ns h$i)" link set v$i address 02:00:00:00:00:0$i
	ip -n "$(ns h$i)" addr add 10.2.0.$i/24 dev v$i
done
MAC2=02:00:00:00:00:02 MAC3=02:00:00:00:00:03

# config MAC_MAX: (re)writes the config file
config() {
	daemon_config <<-EOF
	ports:
	  - { name: p1, device: "net_af_packet1,iface=d1", mode: bridge, bridge: br0, mac_max: $1 }
	  - { name: p2, device: "net_af_packet2,iface=d2", mode: bridge, bridge: br0 }
	  - { name: p3, device: "net_af_packet3,iface=d3", mode: bridge, bridge: br0 }
	bridges:
	  - { name: br0, fdb_max: 64 }
	EOF
}

br() { fwdctl -j bridge list | json_get "d['bridges'][0]['$1']"; }
counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }
on_port() { fwdctl -j bridge fdb br0 | json_get "sum(1 for e in d.get('entries', []) if e['port'] == '$1')"; }
fdb_port() {
	fwdctl -j bridge fdb br0 |
		json_get "next((e['port'] for e in d.get('entries', []) if e['mac'].lower() == '$1'), 'none')"
}
tx() { fwdctl -j stats "$1" | json_get "d['ports'][0]['tx_packets']"; }
# flood: 3,000 frames from distinct unicast MACs on h1
flood() {
	ns_exec h1 "$PY" -c "
from scapy.all import Ether, IP, UDP, sendp
pk = [Ether(src='02:aa:00:00:%02x:%02x' % (i >> 8, i & 255), dst='ff:ff:ff:ff:ff:ff') /
      IP(dst='10.2.0.99') / UDP() for i in range(3000)]
sendp(pk, iface='v1', verbose=False)"
}
settled() {
	local a b
	a=$(br fdb_size)
	sleep 0.5
	b=$(br fdb_size)
	[ "$a" = "$b" ]
}

check "a mac_max on an l3 port is refused" sh -c "
	printf 'ports:\n  - { name: p1, device: net_null0, mac_max: 4 }\n' >$T/bad.yaml
	! $FWD_DAEMON -n -c $T/bad.yaml 2>$T/bad.err && grep -q 'only bridge ports learn MACs' $T/bad.err"

echo "-- p1 with mac_max 8"
must daemon_start fw "$(config 8)"
check "3,000 MACs sent from h1" flood
wait_for 10 settled
expect "p1 holds at most its quota ($(on_port p1) <= 8)" "$(on_port p1)" -le 8
expect "the FDB is not full ($(br fdb_size) < 64)" "$(br fdb_size)" -lt 64
refused=$(counter bridge_mac_max_refused)
expect "the refused MACs are counted (bridge_mac_max_refused $refused)" "$refused" -ge 100
check "ping h2 -> h3 (new hosts)" ns_exec h2 ping -c 3 -i 0.2 -W 2 10.2.0.3
expect "h2 learned on p2" "$(fdb_port $MAC2)" = p2
expect "h3 learned on p3" "$(fdb_port $MAC3)" = p3
before=$(tx p1)
ns_exec h2 ping -c 10 -i 0.1 -W 2 -q 10.2.0.3 >/dev/null
after=$(tx p1) # (an empty reading fails the check, not bash's arithmetic)
expect "h2 -> h3 unicast is not flooded to p1 (tx ${before:-?} -> ${after:-?})" \
	"${after:-none}" -le $((${before:-0} + 2))
sed -i 's/mac_max: 8/mac_max: 16/' "$T/fwd.yaml"
check "config reload: mac_max 8 -> 16" fwdctl config reload
check "flood again" flood
wait_for 10 settled
expect "p1 holds at most its new quota ($(on_port p1) <= 16)" "$(on_port p1)" -le 16
daemon_stop || fail "daemon stopped cleanly"

echo "-- the same without mac_max: the flood takes the FDB"
must daemon_start fw "$(config 0)"
check "3,000 MACs sent from h1" flood
wait_for 10 settled
expect "the FDB is full ($(br fdb_size))" "$(br fdb_size)" = 64
expect "p1 took it ($(on_port p1) of 64 entries)" "$(on_port p1)" -ge 60

smoke_done
