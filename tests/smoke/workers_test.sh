#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Several workers (DESIGN.md 12) on this 2-CPU machine: lcores "0@0,1@1,2@1"
# (two workers sharing CPU 1), two rx queues per port (af_packet qpairs=2,
# the kernel's fanout hash spreads flows over them). Functional, not fast:
# each worker forwards, a TCP flow arrives in order, per-port counters
# equal the sum over workers, route churn under traffic loses nothing
# uncounted, and the daemon stops clean under the sanitizers.
#
#   h1 10.43.1.2 --- p0 [fwd, 2 workers] p1 --- h2 10.43.2.2 (10.43.9.1 on lo)
. "$(dirname "$0")/lib.sh"

smoke_init workers
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.43.1.2/24 10.43.1.1
ns_host h2 v2 10.43.2.2/24 10.43.2.1
ip -n "$(ns h2)" addr add 10.43.9.1/24 dev lo

daemon_config >/dev/null <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1,qpairs=2", rx_queues: 2, addresses: [10.43.1.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2,qpairs=2", rx_queues: 2, addresses: [10.43.2.1/24] }
routes:
  - { prefix: 10.43.9.0/24, via: 10.43.2.2 }
EOF
sed -i 's/lcores: "0-1"/lcores: "0@0,1@1,2@1"/' "$T/fwd.yaml"
must daemon_start fw "$T/fwd.yaml"
check "the daemon warned that workers share a CPU" grep -q "lcores share a CPU" "$T/daemon.log"

workers() { fwdctl -j stats workers | json_get "$1"; }
port_sum() { fwdctl -j stats | json_get "sum(p['$1'] for p in d['ports'])"; }
expect "two workers, on lcores 1 and 2" "$(workers "[w['lcore'] for w in d['workers']]")" = "[1, 2]"
expect "each worker polls one queue of each port" \
	"$(workers "[' '.join(w['rx_queues']) for w in d['workers']]")" = "['p0/0 p1/0', 'p0/1 p1/1']"

# many UDP flows from h1: the fanout hash puts them on both queues
ns_exec h1 ping -c 2 -i 0.2 -W 1 10.43.9.1 >/dev/null 2>&1
fwdctl stats clear
ns_exec h1 "$PY" - <<-'EOF'
	import socket
	for i in range(400):
	    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	    s.bind(('', 30000 + i))
	    for _ in range(5):
	        s.sendto(b'x' * 64, ('10.43.9.1', 9))
	    s.close()
	EOF
sleep 1
log "packets per worker: $(workers "[w['packets'] for w in d['workers']]")"
expect "worker 0 forwarded" "$(workers "d['workers'][0]['packets'] > 100")" = True
expect "worker 1 forwarded" "$(workers "d['workers'][1]['packets'] > 100")" = True
expect "per-port rx equals the sum over workers" "$(port_sum rx_packets)" = \
	"$(workers "sum(w['packets'] for w in d['workers'])")"

# a TCP stream: one flow, one queue, in order (iperf3 counts retransmits)
ns_exec h2 iperf3 -s -1 -D -p 5203 >/dev/null
sleep 0.3
ns_exec h1 timeout 20 iperf3 -c 10.43.9.1 -p 5203 -t 3 -J >"$T/iperf.json" 2>&1
expect "TCP through two workers" "$(json_get "d['end']['sum_received']['bytes'] > 0" <"$T/iperf.json")" = True
log "iperf3: $(json_get "'%.0f Mbit/s, %d retransmits' % (d['end']['sum_received']['bits_per_second'] / 1e6, d['end']['sum_sent'].get('retransmits', 0))" <"$T/iperf.json")"

# route churn while both workers forward: what h1 sent arrives or is counted
fwdctl stats clear
sent_before=$(ns_exec h2 cat /sys/class/net/v2/statistics/rx_packets)
ns_exec h1 "$PY" - >"$T/sent" <<-'EOF' &
	import socket, time
	n = 0
	end = time.time() + 3
	socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(16)]
	for i, s in enumerate(socks):
	    s.bind(('', 31000 + i))
	while time.time() < end:
	    for s in socks:
	        s.sendto(b'y' * 64, ('10.43.9.1', 9))
	        n += 1
	    time.sleep(0.001)
	print(n)
	EOF
sender=$!
for i in $(seq 1 60); do
	fwdctl route add 10.43.9.0/24 via 10.43.2.2 replace >/dev/null 2>&1 ||
		fwdctl route replace 10.43.9.0/24 via 10.43.2.2 >/dev/null 2>&1
	fwdctl route add 10.43.100.$i/32 via 10.43.2.2 >/dev/null 2>&1
	fwdctl route del 10.43.100.$i/32 >/dev/null 2>&1
done
wait "$sender"
sleep 0.5
sent=$(cat "$T/sent")
rx=$(port_sum rx_packets)
tx=$(fwdctl -j stats | json_get "[p['tx_packets'] for p in d['ports'] if p['name']=='p1'][0]")
drops=$(port_sum drops)
log "churn: h1 sent $sent, fwd received $rx, sent on p1 $tx, dropped $drops (counted)"
expect "every packet fwd received left or is a counted drop" "$((tx + drops >= rx - 20))" = 1
expect "fwd received nearly all of them (veth loss aside)" "$((rx * 100 >= sent * 90))" = 1

check "ARP learnt from traffic on either worker: h2 is reachable" \
	bash -c "$FWDCTL_BIN -s $SOCK neigh list | grep -q '10.43.2.2 .*reachable\|10.43.2.2 .*stale'"
smoke_done
