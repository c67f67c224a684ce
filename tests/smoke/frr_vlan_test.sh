#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FRR's BGP over VLAN interfaces (doc/frr.md): fwd's p1 is an 802.1Q trunk
# to a VLAN switch (lib_vlan.sh: Open vSwitch's userspace datapath here,
# Linux VLAN devices where the kernel has them); VLAN interfaces p1.100 and
# p1.200 and a loopback lo0 have `tap: true`, so zebra and bgpd in fwd's
# namespace see kernel interfaces of those names. h1 peers with fwd's
# p1.100 address over VLAN 100; h2 peers with fwd's loopback address
# (fwd's bgpd: `update-source lo0`) over VLAN 200. The sessions come up,
# the peers' prefixes reach fwd's FIB through FPM with next hops out of the
# VLAN interfaces (RTA_OIF of the VLAN TAPs mapped back), and h0's traffic
# to them leaves tagged: the switch hands a frame to h1 (h2) only from
# VLAN 100 (200).
#
#   h0 10.90.0.2 --- p0 10.90.0.1 [fwd + zebra + bgpd AS 65000, lo0 192.0.2.1]
#                    p1 trunk === switch --- VLAN 100 --- h1 10.100.0.2 AS 65001 (10.81/16)
#                    p1.100 10.100.0.1  `--- VLAN 200 --- h2 10.200.0.2 AS 65002 (10.82/16)
#                    p1.200 10.200.0.1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vlan.sh"
. "$(dirname "$0")/lib_frr.sh"

smoke_init frr_vlan
frr_skip_unless_installed
ns_add h0 h1 h2 fw
veth h0 v0 fw d0
must vlan_switch fw d1
must vlan_access h1 v1 100
must vlan_access h2 v2 200
ns_host h0 v0 10.90.0.2/24 10.90.0.1
ns_host h1 v1 10.100.0.2/24 10.100.0.1
ns_host h2 v2 10.200.0.2/24 10.200.0.1
ip -n "$(ns h1)" addr add 10.81.0.1/16 dev lo
ip -n "$(ns h2)" addr add 10.82.0.1/16 dev lo
ip -n "$(ns h2)" route add 192.0.2.1/32 via 10.200.0.1

daemon_config >/dev/null <<-EOF
  fpm: "127.0.0.1:2620"
ports:
  - { name: p0, device: "net_af_packet0,iface=d0", tap: true, addresses: [10.90.0.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d1" }
interfaces:
  - { name: p1.100, port: p1, vlan: 100, addresses: [10.100.0.1/24], tap: true }
  - { name: p1.200, port: p1, vlan: 200, addresses: [10.200.0.1/24], tap: true }
  - { name: lo0, loopback: true, addresses: [192.0.2.1/32], tap: true }
EOF
must daemon_start fw "$T/fwd.yaml"

has_addr() { ip -n "$(ns fw)" -o addr show dev "$1" 2>/dev/null | grep -q "inet $2 "; }
check "p1.100 is a kernel interface with its address" wait_for 3 has_addr p1.100 10.100.0.1/24
check "lo0 is a kernel interface with its /32" wait_for 3 has_addr lo0 192.0.2.1/32
if ! has_addr p1.100 10.100.0.1/24 || ! has_addr lo0 192.0.2.1/32; then
	log "without the kernel interfaces no BGP session can come up: stopping here"
	smoke_done
fi
# the first echo waits for the kernel's ARP over the new TAP: one reply within 5 s
check "the kernel reaches h1 over p1.100 (untagged on the kernel side)" \
	ns_exec fw ping -c 1 -w 5 -I p1.100 10.100.0.2
check "and h2 from the loopback's address over p1.200" \
	ns_exec fw ping -c 2 -i 0.2 -W 1 -I 192.0.2.1 10.200.0.2
check "h2 reaches fwd's loopback address" ns_exec h2 ping -c 2 -i 0.2 -W 1 192.0.2.1

frr_dir r <<-EOF
	hostname fwd-router
	fpm address 127.0.0.1 port 2620
	router bgp 65000
	 bgp router-id 192.0.2.1
	 no bgp ebgp-requires-policy
	 timers bgp 3 9
	 neighbor 10.100.0.2 remote-as 65001
	 neighbor 10.100.0.2 timers connect 1
	 neighbor 10.100.0.2 advertisement-interval 0
	 neighbor 10.200.0.2 remote-as 65002
	 neighbor 10.200.0.2 update-source lo0
	 neighbor 10.200.0.2 ebgp-multihop 2
	 neighbor 10.200.0.2 timers connect 1
	 neighbor 10.200.0.2 advertisement-interval 0
EOF
peer_conf() { # N FWD_ADDRESS PREFIX
	cat <<-EOF
		hostname peer$1
		router bgp 6500$1
		 bgp router-id 10.$(($1 * 100)).0.2
		 no bgp ebgp-requires-policy
		 no bgp network import-check
		 timers bgp 3 9
		 neighbor $2 remote-as 65000
		 neighbor $2 ebgp-multihop 2
		 neighbor $2 timers connect 1
		 neighbor $2 advertisement-interval 0
		 address-family ipv4 unicast
		  network $3
		 exit-address-family
	EOF
}
peer_conf 1 10.100.0.1 10.81.0.0/16 | frr_dir h1
peer_conf 2 192.0.2.1 10.82.0.0/16 | frr_dir h2

check "zebra with dplane_fpm_nl starts in fwd's namespace" frr_start r fw zebra -M dplane_fpm_nl
sleep 0.5
check "bgpd starts in fwd's namespace" frr_start r fw bgpd -p 179
check "h1's bgpd starts" frr_start h1 h1 bgpd -Z -p 179
check "h2's bgpd starts" frr_start h2 h2 bgpd -Z -p 179
vtysh_in r fw "show interface brief" >"$T/zif" 2>&1
check "zebra sees p1.100 up" grep -q '^p1.100 *up' "$T/zif"
check "zebra sees lo0 up" grep -q '^lo0 *up' "$T/zif"

# NEXTHOP@DEV of fwd's route to a prefix learnt by BGP
route_of() {
	fwdctl -j route list | json_get "next((' '.join(h['via'] + '@' + h['dev'] for h in (r.get('nexthops') or [r])) for r in d['routes'] if r['prefix']=='$1' and r.get('origin')=='bgp'), 'absent')"
}
in_fib() { [ "$(route_of "$1")" != absent ]; }
check "h1's prefix reaches fwd's FIB (origin bgp)" wait_for 30 in_fib 10.81.0.0/16
expect "10.81.0.0/16 via h1 out of p1.100" "$(route_of 10.81.0.0/16)" = "10.100.0.2@p1.100"
check "h2's prefix (session from lo0) reaches fwd's FIB" wait_for 20 in_fib 10.82.0.0/16
expect "10.82.0.0/16 via h2 out of p1.200" "$(route_of 10.82.0.0/16)" = "10.200.0.2@p1.200"
vtysh_in h2 h2 "show bgp neighbors 192.0.2.1" >"$T/h2-nbr" 2>&1
check "h2's session is with fwd's loopback address" grep -q 'BGP state = Established' "$T/h2-nbr"
check "from the loopback's address" grep -q 'Foreign host: 192.0.2.1' "$T/h2-nbr"

# traffic follows the BGP routes out of the VLAN interfaces, tagged: the
# switch gives h1 only what came tagged 100, h2 only what came tagged 200
check "h0 pings 10.81.0.1 (h1, VLAN 100, learnt by BGP) through fwd" \
	ns_exec h0 ping -c 3 -i 0.2 -W 1 10.81.0.1
check "h0 pings 10.82.0.1 (h2, VLAN 200, learnt by BGP) through fwd" \
	ns_exec h0 ping -c 3 -i 0.2 -W 1 10.82.0.1

frr_stop h1 bgpd
frr_stop h2 bgpd
frr_stop r bgpd zebra
smoke_done
