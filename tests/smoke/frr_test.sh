#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FRR end to end: fwd with control-plane ports (tap: true)
# and an FPM listener; FRR's zebra (-M dplane_fpm_nl) and bgpd in the
# daemon's namespace, on the kernel interfaces fwd made; two BGP peers
# (bgpd of their own, without zebra) in host namespaces reached through
# fwd's ports. The sessions come up through fwd, the peers' prefixes reach
# fwd's FIB with origin bgp, traffic follows them through fwd's dataplane,
# a withdrawal removes a route, two peers announcing one prefix give an
# ECMP route, and a restart of zebra and bgpd keeps traffic flowing.
#
#   h0 10.90.0.2 --- p0 10.90.0.1 [fwd + zebra + bgpd AS 65000] p1 10.90.1.1 --- h1 10.90.1.2 AS 65001
#                                                               p2 10.90.2.1 --- h2 10.90.2.2 AS 65002
#   h1 announces 10.81.0.0/16 and 10.80.0.0/16, h2 10.80.0.0/16 (both hold 10.80.0.1)
# run.sh: long: 30 s and more, started before the short ones
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_frr.sh"

smoke_init frr
frr_skip_unless_installed
ns_add h0 h1 h2 fw
veth h0 v0 fw d0
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h0 v0 10.90.0.2/24 10.90.0.1
ns_host h1 v1 10.90.1.2/24 10.90.1.1
ns_host h2 v2 10.90.2.2/24 10.90.2.1
ip -n "$(ns h1)" addr add 10.81.0.1/16 dev lo
ip -n "$(ns h1)" addr add 10.80.0.1/16 dev lo
ip -n "$(ns h2)" addr add 10.80.0.1/16 dev lo

daemon_config >/dev/null <<-EOF
  fpm: "127.0.0.1:2620"
  fpm_grace_s: 10
ports:
  - { name: p0, device: "net_af_packet0,iface=d0", tap: true, addresses: [10.90.0.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d1", tap: true, addresses: [10.90.1.1/24] }
  - { name: p2, device: "net_af_packet2,iface=d2", tap: true, addresses: [10.90.2.1/24] }
EOF
must daemon_start fw "$T/fwd.yaml"

origin_of() { fwdctl -j route list | json_get "next((r['origin'] for r in d['routes'] if r['prefix']=='$1'), 'absent')"; }
nexthops() { fwdctl -j route list | json_get "' '.join(sorted(h['via'] for r in d['routes'] if r['prefix']=='$1' for h in r.get('nexthops', [])))"; }
tx() { fwdctl -j stats | json_get "[p['tx_packets'] for p in d['ports'] if p['name']=='$1'][0]"; }

frr_dir r <<-EOF
	hostname fwd-router
	fpm address 127.0.0.1 port 2620
	router bgp 65000
	 bgp router-id 10.90.0.1
	 no bgp ebgp-requires-policy
	 bgp bestpath as-path multipath-relax
	 timers bgp 3 9
	 neighbor 10.90.1.2 remote-as 65001
	 neighbor 10.90.1.2 timers connect 1
	 neighbor 10.90.1.2 advertisement-interval 0
	 neighbor 10.90.2.2 remote-as 65002
	 neighbor 10.90.2.2 timers connect 1
	 neighbor 10.90.2.2 advertisement-interval 0
	 address-family ipv4 unicast
	  maximum-paths 4
	 exit-address-family
EOF
for p in 1 2; do
	frr_dir h$p <<-EOF
		hostname peer$p
		router bgp 6500$p
		 bgp router-id 10.90.$p.2
		 no bgp ebgp-requires-policy
		 no bgp network import-check
		 timers bgp 3 9
		 neighbor 10.90.$p.1 remote-as 65000
		 neighbor 10.90.$p.1 timers connect 1
		 neighbor 10.90.$p.1 advertisement-interval 0
		 address-family ipv4 unicast
		  network 10.80.0.0/16
		  $([ $p = 1 ] && echo "network 10.81.0.0/16")
		 exit-address-family
	EOF
done

check "zebra with dplane_fpm_nl starts in fwd's namespace" frr_start r fw zebra -M dplane_fpm_nl
sleep 0.5
check "bgpd starts in fwd's namespace" frr_start r fw bgpd -p 179
check "peer h1's bgpd starts (no zebra)" frr_start h1 h1 bgpd -Z -p 179
check "peer h2's bgpd starts (no zebra)" frr_start h2 h2 bgpd -Z -p 179

check "zebra connects to fwd's FPM listener" wait_for 20 \
	bash -c "$FWDCTL_BIN -s $SOCK -j status | grep -q '\"connected\":true'"
check "zebra sees fwd's kernel interfaces" \
	bash -c "vtysh --vty_socket $T/frr-r -c 'show interface brief' 2>/dev/null | grep -q '^p1 *up'"
check "BGP routes reach fwd's FIB (origin bgp)" wait_for 60 \
	bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | $PY -c \"import json,sys; d=json.load(sys.stdin); print(next((r['origin'] for r in d['routes'] if r['prefix']=='10.81.0.0/16'), ''))\")\" = bgp ]"
expect "10.81.0.0/16 has origin bgp" "$(origin_of 10.81.0.0/16)" = bgp
check "ECMP: 10.80.0.0/16 from both peers has both next hops" wait_for 20 \
	bash -c "$FWDCTL_BIN -s $SOCK -j route list | grep -q '\"prefix\":\"10.80.0.0/16\"[^}]*\"nexthops\":\[{\"via\":\"10.90.1.2\"[^]]*10.90.2.2'"
expect "route list shows the ECMP next hops" "$(nexthops 10.80.0.0/16)" = "10.90.1.2 10.90.2.2"
fwdctl route list >"$T/routes"
log "$(grep -E '10\.8[01]' -A1 "$T/routes" | tr -s ' ' | tr '\n' ';')"

# -- traffic follows the BGP routes through fwd's dataplane
a=$(tx p1)
check "h0 pings 10.81.0.1 (h1, learnt by BGP) through fwd" \
	ns_exec h0 ping -c 5 -i 0.2 -W 1 10.81.0.1
b=$(tx p1)
expect "fwd's p1 counters moved with the traffic" "$((b - a))" -ge 5
check "h0 pings 10.80.0.1 over the ECMP route" ns_exec h0 ping -c 3 -i 0.2 -W 1 10.80.0.1

# -- a withdrawal removes the route
check "h1 withdraws 10.81.0.0/16" vtysh_in h1 h1 "configure terminal" "router bgp 65001" \
	"address-family ipv4 unicast" "no network 10.81.0.0/16"
check "the withdrawn route leaves fwd's FIB" wait_for 20 \
	bash -c "! $FWDCTL_BIN -s $SOCK route list | grep -q '^10.81.0.0/16'"
ns_exec h0 ping -c 1 -W 1 10.81.0.1 >"$T/unreach" 2>&1
check "traffic to it now gets net unreachable from fwd" \
	grep -q "Destination Net Unreachable" "$T/unreach"
check "h1 announces it again" vtysh_in h1 h1 "configure terminal" "router bgp 65001" \
	"address-family ipv4 unicast" "network 10.81.0.0/16"
check "and it is back" wait_for 20 \
	bash -c "$FWDCTL_BIN -s $SOCK route list | grep -q '^10.81.0.0/16'"

# -- zebra and bgpd restart: fwd keeps forwarding with what it had
# 10 s of pings: the restart below is over in about 5 s
ns_exec h0 ping -i 0.1 -c 100 -W 1 10.81.0.1 >"$T/ping-restart" 2>&1 &
ping_pid=$!
sleep 1
# zebra first, and gone before bgpd is told: a bgpd that stops first
# withdraws its routes through a zebra still alive (seen on a busy machine)
frr_stop r zebra
frr_stop r bgpd
check "zebra gone: fwd says the FPM session is down" wait_for 10 \
	bash -c "$FWDCTL_BIN -s $SOCK -j status | grep -q '\"connected\":false'"
expect "the BGP routes stay while zebra is away" "$(origin_of 10.81.0.0/16)" = bgp
sleep 2
check "zebra restarts" frr_start r fw zebra -M dplane_fpm_nl
sleep 0.5
check "bgpd restarts" frr_start r fw bgpd -p 179
wait "$ping_pid"
loss=$(grep -o '[0-9.]*% packet loss' "$T/ping-restart" | cut -d% -f1)
log "ping every 100 ms across the restart: ${loss}% loss"
expect "traffic kept flowing across the restart (loss under 5%)" \
	"$(awk -v l="${loss:-100}" 'BEGIN {print (l < 5)}')" = 1
check "zebra is back on the FPM session" wait_for 20 \
	bash -c "$FWDCTL_BIN -s $SOCK -j status | grep -q '\"connected\":true'"
# after the replay and the grace (fpm_grace_s 10), the re-learnt routes are
# current and nothing that is still announced was swept: status shows no
# sweep due (sweep_at) once it ran
check "the grace ends and the sweep runs" wait_for 20 \
	bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print(json.load(sys.stdin)[\"fpm\"].get(\"sweep_at\", 0))')\" = 0 ]"
expect "after the grace, 10.81.0.0/16 is still there (re-sent by zebra)" \
	"$(origin_of 10.81.0.0/16)" = bgp
expect "and 10.80.0.0/16 still has both next hops" "$(nexthops 10.80.0.0/16)" = \
	"10.90.1.2 10.90.2.2"
check "traffic still flows" ns_exec h0 ping -c 3 -i 0.2 -W 1 10.81.0.1

frr_stop h1 bgpd
frr_stop h2 bgpd
frr_stop r bgpd zebra
smoke_done
