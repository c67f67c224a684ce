#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How long a BGP table takes to reach fwd's FIB through FRR (`make
# bench-frr`): a peer (bgpd without zebra) in a host namespace announces
# FRR_PREFIXES (default 100000) /24s to the router's bgpd, which runs with
# zebra (-M dplane_fpm_nl) in fwd's namespace on its tap ports; the clock
# starts when the session is established and stops when fwd's FIB holds
# every prefix (polled every 50 ms with `fwdctl -j status`).
#
#   fw: p1 10.97.1.1 [fwd + zebra + bgpd AS 65000] --- peer 10.97.1.2 AS 65001
set -u
cd "$(dirname "$0")/../.."
export SRCDIR=$PWD BUILD=${BUILD:-$PWD/build} FWD_SRCDIR=$PWD
N=${FRR_PREFIXES:-100000}
. tests/smoke/lib.sh

smoke_init frr-table
ns_add peer fw
veth peer v1 fw d1
ns_host peer v1 10.97.1.2/24 10.97.1.1
SMOKE_MEMORY_MB=1024 daemon_config >/dev/null <<-EOF
  fpm: "127.0.0.1:2620"
ports:
  - { name: p1, device: "net_af_packet1,iface=d1", tap: true, addresses: [10.97.1.1/24] }
EOF
must daemon_start fw "$T/fwd.yaml"
chmod 711 "$T"
for who in r peer; do mkdir -p "$T/frr-$who" && chmod 777 "$T/frr-$who"; done
cat >"$T/frr-r/frr.conf" <<-EOF
	fpm address 127.0.0.1 port 2620
	router bgp 65000
	 bgp router-id 10.97.1.1
	 no bgp ebgp-requires-policy
	 neighbor 10.97.1.2 remote-as 65001
	 neighbor 10.97.1.2 timers connect 1
EOF
{
	cat <<-EOF
		router bgp 65001
		 bgp router-id 10.97.1.2
		 no bgp ebgp-requires-policy
		 no bgp network import-check
		 neighbor 10.97.1.1 remote-as 65000
		 neighbor 10.97.1.1 timers connect 1
		 neighbor 10.97.1.1 advertisement-interval 0
		 address-family ipv4 unicast
	EOF
	"$PY" -c "
import sys
n = int(sys.argv[1])
for i in range(n):
    print('  network %d.%d.%d.0/24' % (100 + (i >> 16), (i >> 8) & 255, i & 255))
" "$N"
	echo " exit-address-family"
} >"$T/frr-peer/frr.conf"
frr() {
	local d=$T/frr-$1 ns=$2 prog=$3
	shift 3
	ns_exec "$ns" "/usr/lib/frr/$prog" -d -f "$d/frr.conf" -i "$d/$prog.pid" \
		-z "$d/zserv.api" --vty_socket "$d" -u frr -g frr --log "file:$d/$prog.log" "$@"
}
routes() { fwdctl -j status | json_get "d['routes']"; }
base=$(routes)
frr r fw zebra -M dplane_fpm_nl
sleep 0.5
frr r fw bgpd -p 179
# the peer reads its N network statements before it connects
frr peer peer bgpd -Z -p 179
for _ in $(seq 1 600); do
	ns_exec fw vtysh --vty_socket "$T/frr-r" -c "show bgp summary json" 2>/dev/null |
		grep -q '"state":"Established"' && break
	sleep 0.05
done
t0=$(date +%s.%N)
want=$((base + N))
have=0
for _ in $(seq 1 6000); do
	have=$(routes)
	[ "$have" -ge "$want" ] && break
	sleep 0.05
done
t1=$(date +%s.%N)
secs=$("$PY" -c "print('%.2f' % ($t1 - $t0))")
if [ "$have" -ge "$want" ]; then
	pass "$N BGP prefixes in fwd's FIB ${secs} s after the session came up"
else
	fail "$N BGP prefixes in fwd's FIB (only $((have - base)) after ${secs} s)"
fi
fwdctl status | grep -i "^fpm"
kill "$(cat "$T/frr-peer/bgpd.pid")" "$(cat "$T/frr-r/bgpd.pid")" "$(cat "$T/frr-r/zebra.pid")" 2>/dev/null
sleep 1
smoke_done
