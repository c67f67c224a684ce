#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# IPv4 router: two hosts in different subnets routed through the daemon.
# Ping, traceroute, iperf3; a runtime route to a third subnet; route churn
# under load; config reload; config show round trip.
#
#   h1 10.31.1.2/24 --- p0 10.31.1.1 [fwd] p1 10.31.2.1 --- h2 10.31.2.2/24
#                                                         (h2 also holds 10.31.3.1/24
#                                                          on lo: the "third subnet")
. "$(dirname "$0")/lib.sh"

smoke_init router
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.31.1.2/24 10.31.1.1
ns_host h2 v2 10.31.2.2/24 10.31.2.1
ip -n "$(ns h2)" addr add 10.31.3.1/24 dev lo

# write_cfg [EXTRA_ROUTE_LINE]: (re)write $T/fwd.yaml
write_cfg() {
	DATAPLANE_EXTRA="  neigh_timeout_s: 30" daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.31.1.1/24] }
	  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.31.2.1/24] }
	routes:
	  - { prefix: 198.51.100.0/24, blackhole: true }
	${1:-}
	EOF
}

drops() { fwdctl -j stats | json_get "sum(p['drops'] for p in d['ports'])"; }
drop_reason() { fwdctl -j stats | json_get "sum(c['value'] for p in d['ports'] for c in p['drop_reasons'] if c['name']=='$1')"; }
route_present() { fwdctl -j route list | json_get "any(r['prefix']=='$1' for r in d['routes'])"; }
neigh_mac() { fwdctl -j neigh list | json_get "[n['mac'] for n in d['neighbours'] if n['address']=='$1'][0]"; }
host_mac() { ns_exec "$1" cat "/sys/class/net/$2/address"; }

write_cfg
must daemon_start fw "$T/fwd.yaml"

# -- forwarding and local delivery
check "ping h1 -> h2 through the router" ns_exec h1 ping -c 3 -i 0.2 -W 1 10.31.2.2
check "ping h1 -> router address on the ingress port" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.1.1
check "ping h1 -> router address on the other port" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.2.1
expect "neigh list: h1's MAC on p0" "$(neigh_mac 10.31.1.2)" = "$(host_mac h1 v1)"
expect "neigh list: h2's MAC on p1" "$(neigh_mac 10.31.2.2)" = "$(host_mac h2 v2)"

ns_exec h1 timeout 20 traceroute -n -q 1 -w 2 -m 4 10.31.2.2 >"$T/trace" 2>&1
expect "traceroute shows the router as hop 1" "$(awk '$1==1 {print $2}' "$T/trace")" = 10.31.1.1
expect "traceroute reaches h2 at hop 2" "$(awk '$1==2 {print $2}' "$T/trace")" = 10.31.2.2

iperf_tcp "iperf3 TCP 2 s routed" 10.31.2.2
expect "no drops while routing (ping, traceroute aside)" "$(drop_reason no_route)" -eq 0

# -- a runtime route makes a third subnet reachable, deleting it makes it unreachable
ns_exec h1 ping -c 1 -W 1 10.31.3.1 >"$T/unreach" 2>&1
check "before the route: h1 gets ICMP net unreachable from the router" \
	grep -q "From 10.31.1.1.*Destination Net Unreachable" "$T/unreach"
check "route add 10.31.3.0/24 via 10.31.2.2" fwdctl route add 10.31.3.0/24 via 10.31.2.2
check "third subnet reachable" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.3.1
check "route get shows the gateway and its neighbour" \
	bash -c "$FWDCTL_BIN -s $SOCK route get 10.31.3.1 | grep -q 'via 10.31.2.2 dev p1 neighbour'"
check "route del 10.31.3.0/24" fwdctl route del 10.31.3.0/24
ns_exec h1 ping -c 1 -W 1 10.31.3.1 >"$T/unreach" 2>&1
check "after the delete: net unreachable again" \
	grep -q "Destination Net Unreachable" "$T/unreach"
check_fails "a gateway off every connected subnet is refused" \
	fwdctl route add 10.77.0.0/16 via 192.0.2.1
fwdctl route add 10.77.0.0/16 via 192.0.2.1 2>"$T/err"
expect "refusal exits 1 with a clear message" "$(cat "$T/err")" = \
	"fwdctl: route add: gateway 192.0.2.1 is not on a connected subnet"

# -- hitless: the route carrying a TCP stream is rewritten every ~10 ms for 5 s
fwdctl route add 10.31.3.0/24 via 10.31.2.2
fwdctl stats clear
ns_exec h2 iperf3 -s -1 -D -p 5202 >/dev/null
sleep 0.3
ns_exec h1 timeout 30 iperf3 -c 10.31.3.1 -p 5202 -t 6 -J >"$T/churn.json" 2>&1 &
iperf_pid=$!
churn=$("$PY" "$SRCDIR/tests/smoke/rpc_churn.py" "$SOCK" 5 10)
wait $iperf_pid
iperf_rc=$?
# (one every 10 ms asked; a loaded machine makes fewer, and the stream must
# survive whatever number came)
expect "route churn: $churn changes in 5 s (rpc_churn.py)" "${churn:-0}" -gt 50
if [ $iperf_rc -eq 0 ]; then
	pass "TCP stream survived the churn: $(json_get "round(d['end']['sum_received']['bits_per_second']/1e9, 2)" <"$T/churn.json") Gbit/s, $(json_get "d['end']['sum_sent']['retransmits']" <"$T/churn.json") retransmits"
else
	fail "TCP stream survived the churn"
fi
expect "no drops counted during the churn" "$(drops)" -eq 0

# -- config reload adds and removes routes
write_cfg "  - { prefix: 10.88.0.0/16, via: 10.31.2.2 }"
check "config reload (route added to the file)" fwdctl config reload
expect "reloaded route present" "$(route_present 10.88.0.0/16)" = True
write_cfg
kill -HUP "$DAEMON_PID"
check "SIGHUP reload removes it again" wait_for 5 bash -c \
	"[ \"\$($FWDCTL_BIN -s $SOCK -j route list | $PY -c 'import json,sys; print(any(r[\"prefix\"]==\"10.88.0.0/16\" for r in json.load(sys.stdin)[\"routes\"]))')\" = False ]"
expect "a runtime route survives reloads" "$(route_present 10.31.3.0/24)" = True

# -- renumbering p1 inside its subnet keeps the routes through it (a reload
#    used to delete the address first, and the routes with it, for good)
write_cfg "  - { prefix: 0.0.0.0/0, via: 10.31.2.2 }"
check "config reload (a default route via h2)" fwdctl config reload
sed -i 's|10.31.2.1/24|10.31.2.9/24|' "$T/fwd.yaml"
check "config reload (p1 renumbered 10.31.2.1 -> 10.31.2.9)" fwdctl config reload
expect "the default route is still there" "$(route_present 0.0.0.0/0)" = True
expect "the runtime route through p1 too" "$(route_present 10.31.3.0/24)" = True
check "route get 192.0.2.1 goes via 10.31.2.2" \
	bash -c "$FWDCTL_BIN -s $SOCK route get 192.0.2.1 | grep -q 'via 10.31.2.2 dev p1'"
check "the new address answers" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.2.9
write_cfg
check "config reload (back to 10.31.2.1)" fwdctl config reload
check "ping h1 -> h2 after the round trip" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.31.2.2
echo "ports: [ { name: p0, device: bad } ]" >"$T/bad.yaml"
cp "$T/fwd.yaml" "$T/good.yaml"
cp "$T/bad.yaml" "$T/fwd.yaml"
check_fails "a bad file is refused" fwdctl config reload
cp "$T/good.yaml" "$T/fwd.yaml"
expect "... and nothing changed" "$(route_present 198.51.100.0/24)" = True
ip -n "$(ns fw)" link add d3 type veth peer name d3p # exists: the device test passes
sed 's/net_af_packet1,iface=d2/net_af_packet1,iface=d3/' "$T/good.yaml" >"$T/fwd.yaml"
fwdctl config reload 2>"$T/err"
check "a device change is refused as needing a restart" grep -q "needs a restart" "$T/err"
cp "$T/good.yaml" "$T/fwd.yaml"

# -- config show is a config the daemon accepts
fwdctl config show >"$T/running.yaml"
check "config show passes fwd-daemon --check" ns_exec fw "$FWD_DAEMON" --check -c "$T/running.yaml"
check "config show includes the runtime route" grep -q "10.31.3.0/24" "$T/running.yaml"

smoke_done
