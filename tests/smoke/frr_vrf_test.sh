#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FRR's BGP in a VRF feeds only that VRF: fwd with control.vrf_backend:
# netns (this kernel has no VRF driver) puts the kernel interfaces of VRF
# blue's ports into the network namespace "blue"; zebra -n (FRR's netns
# VRF backend) sees it as VRF blue and `router bgp 65000 vrf blue` peers
# with h1 there. h1's prefix lands in fwd's VRF blue only: h2 (blue)
# reaches it through fwd, h0 (default) does not; a withdrawal takes it out
# of blue (an FPM delete carries no interface in this backend).
#
#   h0 10.92.0.2 --- p0 10.92.0.1 [fwd, default]
#   h1 10.92.1.2 --- p1 10.92.1.1 [fwd, VRF blue]  h1: AS 65001, 10.72.0.0/16
#   h2 10.92.2.2 --- p2 10.92.2.1 [fwd, VRF blue]
#
# zebra -n takes every namespace in /run/netns as a VRF: fwd and FRR run in
# a mount namespace of their own whose /run/netns is an empty tmpfs, so they
# see "blue" (made by fwd) and nothing of other tests.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_frr.sh"

smoke_init frr_vrf
frr_skip_unless_installed
command -v unshare >/dev/null && command -v nsenter >/dev/null || {
	log "SKIP: unshare/nsenter missing"
	exit 0
}
ns_add h0 h1 h2 fw
veth h0 v0 fw d0
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h0 v0 10.92.0.2/24 10.92.0.1
ns_host h1 v1 10.92.1.2/24 10.92.1.1
ns_host h2 v2 10.92.2.2/24 10.92.2.1
ip -n "$(ns h1)" addr add 10.72.0.1/16 dev lo

# the daemon in its own mount namespace (inside ip netns exec's), with an
# empty /run/netns
cat >"$T/fwd-mntns" <<-EOF
	#!/bin/sh
	exec unshare -m --propagation private sh -c 'mount -t tmpfs fwd-netns /run/netns && exec "\$0" "\$@"' "$FWD_DAEMON" "\$@"
EOF
chmod +x "$T/fwd-mntns"
FWD_DAEMON=$T/fwd-mntns

# the default backend (VRF devices) on this kernel, which has no VRF
# driver: a clear error naming control.vrf_backend, and no start
if ! ip link add "$SMOKE_ID-v" type vrf table 10 2>/dev/null; then
	daemon_config >/dev/null <<-EOF
vrfs:
  - { name: blue, table: 10 }
ports:
  - { name: p1, device: "net_af_packet1,iface=d1", tap: true, vrf: blue, addresses: [10.92.1.1/24] }
EOF
	check_fails "vrf_backend vrf without the kernel's VRF driver: fwd-daemon does not start" \
		daemon_start fw "$T/fwd.yaml"
	check "and says to set control.vrf_backend: netns" \
		grep -q "no VRF driver: set control.vrf_backend: netns" "$T/daemon.log"
else
	ip link del "$SMOKE_ID-v"
fi

daemon_config >/dev/null <<-EOF
  fpm: "127.0.0.1:2620"
  fpm_grace_s: 5
  vrf_backend: netns
vrfs:
  - { name: blue, table: 10 }
ports:
  - { name: p0, device: "net_af_packet0,iface=d0", tap: true, addresses: [10.92.0.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d1", tap: true, vrf: blue, addresses: [10.92.1.1/24] }
  - { name: p2, device: "net_af_packet2,iface=d2", tap: true, vrf: blue, addresses: [10.92.2.1/24] }
EOF
must daemon_start fw "$T/fwd.yaml"
# run in the daemon's mount and network namespaces
in_fwd() { nsenter --mount="/proc/$DAEMON_PID/ns/mnt" --net="/proc/$DAEMON_PID/ns/net" "$@"; }

check "fwd made the namespace blue" in_fwd test -e /run/netns/blue
check "p1's kernel interface is in namespace blue" in_fwd ip -n blue link show p1
check "p0's kernel interface stays in fwd's namespace" in_fwd ip link show p0
check_fails "p1's is not in fwd's namespace" in_fwd ip link show p1
check "p1's address is on it, in blue" \
	bash -c "nsenter --mount=/proc/$DAEMON_PID/ns/mnt ip -n blue -4 addr show p1 | grep -q 10.92.1.1/24"

origin_in() { fwdctl -j -V "$1" route list | json_get "next((r['origin'] for r in d['routes'] if r['prefix']=='$2'), 'absent')"; }

frr_dir r <<-EOF
	hostname fwd-router
	fpm address 127.0.0.1 port 2620
	no fpm use-next-hop-groups
	router bgp 65000 vrf blue
	 bgp router-id 10.92.1.1
	 no bgp ebgp-requires-policy
	 timers bgp 3 9
	 neighbor 10.92.1.2 remote-as 65001
	 neighbor 10.92.1.2 timers connect 1
	 neighbor 10.92.1.2 advertisement-interval 0
EOF
frr_dir h1 <<-EOF
	hostname peer1
	router bgp 65001
	 bgp router-id 10.92.1.2
	 no bgp ebgp-requires-policy
	 no bgp network import-check
	 timers bgp 3 9
	 neighbor 10.92.1.1 remote-as 65000
	 neighbor 10.92.1.1 timers connect 1
	 neighbor 10.92.1.1 advertisement-interval 0
	 address-family ipv4 unicast
	  network 10.72.0.0/16
	 exit-address-family
EOF
# FRR's daemons of fwd's router where fwd is (frr_start runs ip netns exec)
frr_in_fwd() {
	local d=$T/frr-r prog=$1
	shift
	in_fwd "/usr/lib/frr/$prog" -d -f "$d/frr.conf" -i "$d/$prog.pid" -z "$d/zserv.api" \
		--vty_socket "$d" -u frr -g frr --log "file:$d/$prog.log" "$@"
}
check "zebra -n (netns VRFs) with dplane_fpm_nl starts" frr_in_fwd zebra -n -M dplane_fpm_nl
sleep 0.5
check "bgpd starts" frr_in_fwd bgpd -p 179
check "peer h1's bgpd starts (no zebra)" frr_start h1 h1 bgpd -Z -p 179

check "zebra connects to fwd's FPM listener" wait_for 20 \
	bash -c "$FWDCTL_BIN -s $SOCK -j status | grep -q '\"connected\":true'"
check "zebra sees VRF blue with p1 in it" wait_for 10 \
	bash -c "vtysh --vty_socket $T/frr-r -c 'show interface vrf blue brief' 2>/dev/null | grep -q '^p1 '"
check "h1's prefix reaches fwd's VRF blue (origin bgp)" wait_for 30 \
	bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j -V blue route list | $PY -c \"import json,sys; d=json.load(sys.stdin); print(next((r['origin'] for r in d['routes'] if r['prefix']=='10.72.0.0/16'), ''))\")\" = bgp ]"
expect "10.72.0.0/16 is in VRF blue with origin bgp" "$(origin_in blue 10.72.0.0/16)" = bgp
expect "and not in the default VRF" "$(origin_in default 10.72.0.0/16)" = absent
expect "the connected echoes of blue were not installed as routes" \
	"$(fwdctl -j -V blue route list | json_get "sum(1 for r in d['routes'] if r['origin'] not in ('address', 'bgp'))")" = 0
fwdctl -V blue route list | grep -E '^10\.72' | tr -s ' ' | sed 's/^/  /'

check "h2 (VRF blue) pings 10.72.0.1 through fwd" ns_exec h2 ping -c 3 -i 0.2 -W 1 10.72.0.1
ns_exec h0 ping -c 1 -W 1 10.72.0.1 >"$T/unreach" 2>&1
check "h0 (default) gets net unreachable for it" grep -q "Destination Net Unreachable" "$T/unreach"

check "h1 withdraws 10.72.0.0/16" vtysh_in h1 h1 "configure terminal" "router bgp 65001" \
	"address-family ipv4 unicast" "no network 10.72.0.0/16"
check "the withdrawn route leaves VRF blue" wait_for 20 \
	bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j -V blue route list | grep -c 10.72.0.0/16)\" = 0 ]"
expect "no FPM delete was ambiguous or of an unknown table" \
	"$(fwdctl -j status | json_get "sum(c['value'] for c in d['fpm']['counters'] if c['name'] in ('vrf_ambiguous', 'unknown_table'))")" = 0

frr_stop h1 bgpd
frr_stop r bgpd zebra
smoke_done
