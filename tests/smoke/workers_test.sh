#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Several workers on this 2-CPU machine: lcores "0@0,1@1,2@1"
# (two workers sharing CPU 1), three rx queues per port (af_packet qpairs=3,
# the kernel's fanout hash spreads flows over them). Functional, not fast:
# each worker forwards, a capture sees every worker's packets, a TCP flow
# arrives in order, per-port counters equal the sum over workers, route
# churn under traffic loses nothing uncounted, ARP is learnt whichever
# worker's queue it arrives on, and the daemon stops clean under the
# sanitizers.
#
# Three queues a port, not two: the fanout hash of every ARP frame is the
# same (no addresses or ports to hash), so ARP lands on the same queue
# number of each port, and with an odd number of queues the same number of
# p0 and p1 is polled by different workers: both workers see ARP.
#
# af_xdp is not here: DPDK 22.11's net_af_xdp takes queue_count up to the
# interface's combined channels, which veth does not have (it has separate
# rx and tx channels: "Specified queue count 2 is larger than combined
# queue count 1"), and with one queue a port it has one tx queue, fewer
# than the two workers need.
#
#   h1 10.43.1.2 --- p0 [fwd, 2 workers] p1 --- h2 10.43.2.2 (10.43.9.1 on lo)
# run.sh: alone: it checks that its two workers, sharing CPU 1, take in 90% of a
# 3 s UDP stream; a third worker polling that CPU would take its share
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
  - { name: p0, device: "net_af_packet0,iface=d1,qpairs=3", rx_queues: 3, addresses: [10.43.1.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2,qpairs=3", rx_queues: 3, addresses: [10.43.2.1/24] }
routes:
  - { prefix: 10.43.9.0/24, via: 10.43.2.2 }
EOF
sed -i 's/lcores: "0-1"/lcores: "0@0,1@1,2@1"/' "$T/fwd.yaml"
must daemon_start fw "$T/fwd.yaml"
check "the daemon warned that workers share a CPU" grep -q "lcores share a CPU" "$T/daemon.log"

workers() { fwdctl -j stats workers | json_get "$1"; }
port_sum() { fwdctl -j stats | json_get "sum(p['$1'] for p in d['ports'])"; }
expect "two workers, on lcores 1 and 2" "$(workers "[w['lcore'] for w in d['workers']]")" = "[1, 2]"
expect "the workers poll the queues in turn, port after port" \
	"$(workers "[' '.join(w['rx_queues']) for w in d['workers']]")" = "['p0/0 p0/2 p1/1', 'p0/1 p1/0 p1/2']"

# many UDP flows from h1: the fanout hash puts them on every queue; a
# capture of p0's rx runs meanwhile (800 packets: fewer than its ring holds)
ns_exec h1 ping -c 2 -i 0.2 -W 1 10.43.9.1 >/dev/null 2>&1
"$FWDCTL_BIN" -s "$SOCK" capture p0 rx -w "$T/rx.pcapng" 2>"$T/capture.err" &
capture=$!
must wait_for 10 test -s "$T/rx.pcapng"
fwdctl stats clear
ns_exec h1 "$PY" - <<-'EOF'
	import socket
	for i in range(400):
	    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	    s.bind(('', 30000 + i))
	    for _ in range(2):
	        s.sendto(b'x' * 64, ('10.43.9.1', 9))
	    s.close()
	EOF
rx_settled() {
	local a
	a=$(port_sum rx_packets)
	sleep 0.3
	[ "$a" -gt 0 ] && [ "$a" = "$(port_sum rx_packets)" ]
}
wait_for 10 rx_settled
log "packets per worker: $(workers "[w['packets'] for w in d['workers']]")"
expect "worker 0 forwarded" "$(workers "d['workers'][0]['packets'] > 100")" = True
expect "worker 1 forwarded" "$(workers "d['workers'][1]['packets'] > 100")" = True
expect "per-port rx equals the sum over workers" "$(port_sum rx_packets)" = \
	"$(workers "sum(w['packets'] for w in d['workers'])")"
p0_rx=$(fwdctl -j stats | json_get "[p['rx_packets'] for p in d['ports'] if p['name']=='p0'][0]")
captured() { tcpdump -n -r "$T/rx.pcapng" 2>/dev/null | wc -l; }
all_captured() { [ "$(captured)" -ge "$p0_rx" ]; }
# the pages reach the file within about a second of the packets
wait_for 10 all_captured
kill -INT "$capture"
wait "$capture"
log "capture: $(cat "$T/capture.err"); p0 received $p0_rx"
expect "the capture of p0 has every packet both workers received there" \
	"$(captured)" = "$p0_rx"
check "and dropped none" grep -q "packets captured, 0 dropped" "$T/capture.err"

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

# ARP on both workers: 8 hosts behind each port ask for the gateway, from
# addresses fwd has never seen; fwd learns each one (a request for our
# address is how a neighbour is learnt from traffic)
arp_ask() {
	ns_exec "$1" "$PY" - "$2" "$3" "$4" <<-'EOF'
	import socket, sys
	ifname, net, gw = sys.argv[1], sys.argv[2], sys.argv[3]
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
	s.bind((ifname, 0))
	for i in range(3, 11):
	    mac = bytes([2, 0, 0, 0x43, int(net.split('.')[2]), i])
	    sip = socket.inet_aton('%s.%d' % (net, i))
	    arp = (b'\x00\x01\x08\x00\x06\x04\x00\x01' + mac + sip + bytes(6) +
	           socket.inet_aton(gw))
	    s.send(b'\xff' * 6 + mac + b'\x08\x06' + arp + bytes(18))
	EOF
}
learnt() {
	[ "$(fwdctl neigh list | grep -Ec '10\.43\.[12]\.([3-9]|10) ')" -eq 16 ]
}
sleep 0.5
fwdctl stats clear
arp_ask h1 v1 10.43.1 10.43.1.1
arp_ask h2 v2 10.43.2 10.43.2.1
check "fwd learnt the 16 hosts that asked for it, 8 behind each port" wait_for 10 learnt
log "ARP frames per worker: $(workers "[w['packets'] for w in d['workers']]")"
expect "worker 0 received ARP" "$(workers "d['workers'][0]['packets'] >= 1")" = True
expect "worker 1 received ARP, and what it received was learnt too" \
	"$(workers "d['workers'][1]['packets'] >= 1")" = True
expect "the workers received the 16 frames" \
	"$(workers "sum(w['packets'] for w in d['workers']) >= 16")" = True
smoke_done
