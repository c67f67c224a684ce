#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# VRFs (fwd.yaml(5) VRFS): two VRFs with the same 10.0.0.0/24, neither
# reaching the other; a next_vrf default route from blue into the default
# VRF (and the way back); moving a port between VRFs by reload and with
# fwdctl; fwdctl -V, vrf list, route load in a VRF, monitor.
#
#   h1 10.0.0.2/24 --- p0 10.0.0.1 (vrf blue) [fwd] p2 192.0.2.1 (default) --- h3 192.0.2.2/24
#   h2 10.0.0.2/24 --- p1 10.0.0.1 (vrf red)  [   ]   red also has 10.99.0.1 on loopback lo-red
. "$(dirname "$0")/lib.sh"

smoke_init vrf
ns_add h1 h2 h3 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
veth h3 v3 fw d3
ns_host h1 v1 10.0.0.2/24 10.0.0.1
ns_host h2 v2 10.0.0.2/24 10.0.0.1
ns_host h3 v3 192.0.2.2/24 192.0.2.1

# write_cfg [P2_VRF]: p2 in the default VRF, or in P2_VRF
export SMOKE_MEMORY_MB=1024 # three VRFs of tables (a VRF's cost: README)

write_cfg() {
	daemon_config >/dev/null <<-EOF
	vrfs:
	  - { name: blue, table: 10 }
	  - { name: red, table: 20 }
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", vrf: blue, addresses: [10.0.0.1/24] }
	  - { name: p1, device: "net_af_packet1,iface=d2", vrf: red, addresses: [10.0.0.1/24] }
	  - { name: p2, device: "net_af_packet2,iface=d3", ${1:+vrf: $1,} addresses: [192.0.2.1/24] }
	interfaces:
	  - { name: lo-red, loopback: true, vrf: red, addresses: [10.99.0.1/32] }
	routes:
	  - { prefix: 0.0.0.0/0, vrf: blue, next_vrf: default }
	  - { prefix: 10.0.0.0/24, next_vrf: blue }
	EOF
}

ping1() { ns_exec "$1" ping -c 1 -W 1 "$2"; }
neigh_macs() { fwdctl -V "$1" -j neigh list | json_get "sorted(n['mac'] for n in d['neighbours'] if n['address']=='10.0.0.2')"; }
vrf_field() { fwdctl -j vrf list | json_get "[v for v in d['vrfs'] if v['name']=='$1'][0]['$2']"; }
host_mac() { ns_exec "$1" cat "/sys/class/net/$2/address"; }

write_cfg
must daemon_start fw "$T/fwd.yaml"
fwdctl config show >"$T/fresh.yaml"
fwdctl -j monitor vrf >"$T/monitor" 2>&1 &
mon=$!

# -- the same subnet in two VRFs, side by side
check "h1 (blue) pings 10.0.0.1" wait_for 3 ping1 h1 10.0.0.1
check "h2 (red) pings 10.0.0.1" wait_for 3 ping1 h2 10.0.0.1
expect "blue's neighbour 10.0.0.2 is h1" "$(neigh_macs blue)" = "['$(host_mac h1 v1)']"
expect "red's neighbour 10.0.0.2 is h2" "$(neigh_macs red)" = "['$(host_mac h2 v2)']"
check "h2 (red) pings red's loopback 10.99.0.1" ping1 h2 10.99.0.1
check_fails "h1 (blue) does not reach red's 10.99.0.1" ping1 h1 10.99.0.1
check_fails "h2 (red) does not reach 192.0.2.2 (red has no way out)" ping1 h2 192.0.2.2
# -- next_vrf: blue's default route into the default VRF, and back
check "h1 (blue) reaches h3 through next_vrf default" ping1 h1 192.0.2.2
check "route get in blue names the next VRF" \
	bash -c "$FWDCTL_BIN -s $SOCK -V blue route get 192.0.2.2 | grep -q 'next-vrf'"
expect "route list -V red: its connected 10.0.0.0/24 only (no default route)" \
	"$(fwdctl -V red -j route list | json_get "sorted(r['prefix'] for r in d['routes'] if r['prefix'].count('.')==3)")" \
	= "['10.0.0.0/24']"
expect "vrf list: blue holds p0" "$(vrf_field blue interfaces)" = "['p0']"
expect "vrf list: red holds p1 and lo-red" "$(vrf_field red interfaces)" = "['p1', 'lo-red']"
expect "vrf list: blue's table" "$(vrf_field blue table)" = 10
fwdctl -V green route list >/dev/null 2>"$T/err"
expect "an unknown VRF: exit 1, no such VRF" "$?:$(cat "$T/err")" = "1:fwdctl: route list: no such VRF: green"

# -- route load and fwdctl add in a VRF
printf '10.50.0.0/16 blackhole\n10.51.0.0/16 via 10.0.0.2\n' >"$T/routes"
check "route load -V red" fwdctl -V red route load "$T/routes"
expect "the loaded routes are red's only" \
	"$(fwdctl -V red -j route list | json_get "sum(r['prefix'].startswith('10.5') for r in d['routes'])"):$(fwdctl -V blue -j route list | json_get "sum(r['prefix'].startswith('10.5') for r in d['routes'])")" = "2:0"

# -- moving p2 (h3) into red by reload: red reaches h3, blue no longer does
write_cfg red
check "config reload (p2 into red)" fwdctl config reload
check "h2 (red) now reaches h3" ping1 h2 192.0.2.2
check_fails "h1 (blue) no longer reaches h3" ping1 h1 192.0.2.2
expect "vrf list: red holds p1, p2, lo-red" "$(vrf_field red interfaces)" = "['p1', 'p2', 'lo-red']"
expect "p2's connected route left the default VRF" \
	"$(fwdctl -j route list | json_get "any(r['prefix']=='192.0.2.0/24' for r in d['routes'])")" = False
write_cfg
check "config reload (p2 back into default)" fwdctl config reload
check "h1 (blue) reaches h3 again" ping1 h1 192.0.2.2
fwdctl -V red route del 10.50.0.0/16
fwdctl -V red route del 10.51.0.0/16
fwdctl config show >"$T/back.yaml"
check "config show after the round trip equals a fresh start" diff "$T/fresh.yaml" "$T/back.yaml"

# -- fwdctl iface set NAME vrf VRF
check "iface set p2 vrf red" fwdctl iface set p2 vrf red
check "h2 (red) reaches h3 after the move" ping1 h2 192.0.2.2
check "iface set p2 vrf default" fwdctl iface set p2 vrf default
check "h1 (blue) reaches h3 after moving back" ping1 h1 192.0.2.2

kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
expect "monitor saw p2 move into red" "$(grep -c '"action":"moved","port":"p2".*"vrf":"red"' "$T/monitor")" -ge 1
smoke_done
