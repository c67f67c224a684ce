#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make demo-frr`: fwd with control-plane ports and an FPM listener, FRR's
# zebra and bgpd in fwd's namespace, a BGP peer in a host namespace that
# announces 10.99.0.0/16 through fwd's port; the route arrives in fwd's FIB
# with origin bgp and a ping from another host follows it. Everything runs
# in namespaces of its own (and FRR in a private directory, not
# /etc/frr) and is torn down at the end, also on Ctrl-C.
#
#   h0 10.98.0.2 --- p0 10.98.0.1 [fwd + zebra + bgpd AS 65000] p1 10.98.1.1 --- peer 10.98.1.2 AS 65001
#                                                                                (10.99.0.1 on lo)
set -u
cd "$(dirname "$0")/.."
export SRCDIR=$PWD BUILD=${BUILD:-$PWD/build}
[ -x /usr/lib/frr/bgpd ] || {
	echo "demo-frr: FRR is not installed (make deps installs it)" >&2
	exit 1
}
. tests/smoke/lib.sh

say() { printf '\n\033[1m### %s\033[0m\n' "$*"; }
run() {
	printf '$ fwdctl %s\n' "$*"
	fwdctl "$@"
}

smoke_init demo-frr
ns_add h0 peer fw
veth h0 v0 fw d0
veth peer v1 fw d1
ns_host h0 v0 10.98.0.2/24 10.98.0.1
ns_host peer v1 10.98.1.2/24 10.98.1.1
ip -n "$(ns peer)" addr add 10.99.0.1/16 dev lo
daemon_config >/dev/null <<-EOF
  fpm: "127.0.0.1:2620"
ports:
  - { name: p0, device: "net_af_packet0,iface=d0", tap: true, addresses: [10.98.0.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d1", tap: true, addresses: [10.98.1.1/24] }
EOF
say "fwd-daemon with control-plane ports (tap: true) and control.fpm"
sed -n '/^control:/,$p' "$T/fwd.yaml"
must daemon_start fw "$T/fwd.yaml"
printf '$ ip -br addr   (in fwd'"'"'s namespace: the kernel interfaces fwd made)\n'
ns_exec fw ip -br addr show | grep -v '^lo\|^d[01]'

chmod 711 "$T"
for who in r peer; do mkdir -p "$T/frr-$who" && chmod 777 "$T/frr-$who"; done
cat >"$T/frr-r/frr.conf" <<-EOF
	fpm address 127.0.0.1 port 2620
	router bgp 65000
	 bgp router-id 10.98.0.1
	 no bgp ebgp-requires-policy
	 neighbor 10.98.1.2 remote-as 65001
	 neighbor 10.98.1.2 timers connect 1
EOF
cat >"$T/frr-peer/frr.conf" <<-EOF
	router bgp 65001
	 bgp router-id 10.98.1.2
	 no bgp ebgp-requires-policy
	 no bgp network import-check
	 neighbor 10.98.1.1 remote-as 65000
	 neighbor 10.98.1.1 timers connect 1
	 address-family ipv4 unicast
	  network 10.99.0.0/16
	 exit-address-family
EOF
frr() { # DIR NS DAEMON ARGS...
	local d=$T/frr-$1 ns=$2 prog=$3
	shift 3
	ns_exec "$ns" "/usr/lib/frr/$prog" -d -f "$d/frr.conf" -i "$d/$prog.pid" \
		-z "$d/zserv.api" --vty_socket "$d" -u frr -g frr --log "file:$d/$prog.log" "$@"
}
say "FRR in fwd's namespace: zebra -M dplane_fpm_nl and bgpd; a BGP peer in its own"
cat "$T/frr-r/frr.conf"
frr r fw zebra -M dplane_fpm_nl
sleep 0.5
frr r fw bgpd -p 179
frr peer peer bgpd -Z -p 179

say "waiting for the BGP session (through fwd's port p1) and the route"
for _ in $(seq 1 60); do
	fwdctl route list 2>/dev/null | grep -q '^10.99.0.0/16' && break
	sleep 1
done
ns_exec fw vtysh --vty_socket "$T/frr-r" -c "show bgp summary" 2>/dev/null | grep -E '^Neighbor|^10\.98'
run status | grep -A3 -i fpm
run route list

say "h0 pings 10.99.0.1 behind the peer: fwd forwards it by the route BGP gave it"
ns_exec h0 ping -c 3 -i 0.3 -W 1 10.99.0.1
run stats p1 | head -5

say "done: tearing down"
kill "$(cat "$T/frr-peer/bgpd.pid")" "$(cat "$T/frr-r/bgpd.pid")" "$(cat "$T/frr-r/zebra.pid")" 2>/dev/null
sleep 1
smoke_done
