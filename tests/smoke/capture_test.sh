#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packet capture: two hosts joined by an xconnect pair through the daemon;
# `fwdctl capture` while h1 pings h2, written as pcapng that tcpdump reads,
# and as summary lines; -c stops it, Ctrl-C and a vanished client end it,
# one capture per port at a time.
. "$(dirname "$0")/lib.sh"

smoke_init capture
ns_add h1 h2 fw
# no IPv6 anywhere: router solicitations and MLD reports would take
# capture slots
for h in h1 h2 fw; do
	ns_exec $h sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
veth h1 v1 fw d1
veth h2 v2 fw d2
ip -n "$(ns h1)" addr add 10.1.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.1.0.2/24 dev v2

cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: xconnect, peer: p1 }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: xconnect, peer: p0 }
EOF
)
ctl() { timeout 30 "$FWDCTL_BIN" -s "$SOCK" "$@"; }
must daemon_start fw "$cfg"
# neighbours resolved up front, so the captures below see only the pings,
# and permanent: a reachable entry's refresh (a unicast ARP probe and its
# answer, 5 s after h2's first reply) would take two packets of a capture
must wait_for 10 ns_exec h1 ping -c 1 -W 1 10.1.0.2
mac_of() { ns_exec "$1" cat "/sys/class/net/$2/address"; }
must ip -n "$(ns h1)" neigh replace 10.1.0.2 lladdr "$(mac_of h2 v2)" dev v1 nud permanent
must ip -n "$(ns h2)" neigh replace 10.1.0.1 lladdr "$(mac_of h1 v1)" dev v2 nud permanent
# h1 pings h2 every 0.2 s until cleanup
bg h1 ping -i 0.2 10.1.0.2

# -- pcapng to a file, stopped by -c
PCAP=$T/p0.pcapng
check "capture p0 -c 6 -w FILE ends by itself" ctl capture p0 -c 6 -w "$PCAP"
expect "the file starts with a pcapng section header" \
	"$(head -c 4 "$PCAP" | od -An -tx1 | tr -d ' ')" = 0a0d0d0a
tcpdump -n -r "$PCAP" >"$T/tcpdump.out" 2>"$T/tcpdump.err"
check "tcpdump reads the file" grep -q "link-type EN10MB" "$T/tcpdump.err"
expect "tcpdump sees 6 packets" "$(wc -l <"$T/tcpdump.out")" -eq 6
check "tcpdump sees echo requests 10.1.0.1 > 10.1.0.2" \
	grep -q "10.1.0.1 > 10.1.0.2: ICMP echo request" "$T/tcpdump.out"
check "tcpdump sees echo replies 10.1.0.2 > 10.1.0.1" \
	grep -q "10.1.0.2 > 10.1.0.1: ICMP echo reply" "$T/tcpdump.out"
if command -v tshark >/dev/null; then
	check "tshark reads the file" tshark -r "$PCAP" -Y icmp
fi
now=$(date +%s)
first=$(tcpdump -tt -n -r "$PCAP" 2>/dev/null | head -1 | cut -d. -f1)
expect "timestamps are now, not garbage ($first vs $now)" "$((now - first))" -lt 60

# -- directions
count() { tcpdump -n -r "$1" 2>/dev/null | grep -c "$2"; }
check "capture p0 rx -c 4 -w FILE" ctl capture p0 rx -c 4 -w "$T/rx.pcapng"
expect "rx on p0: echo requests" "$(count "$T/rx.pcapng" 'echo request')" -ge 2
expect "rx on p0: no echo replies" "$(count "$T/rx.pcapng" 'echo reply')" -eq 0
check "capture p0 tx -c 4 -w FILE" ctl capture p0 tx -c 4 -w "$T/tx.pcapng"
expect "tx on p0: echo replies" "$(count "$T/tx.pcapng" 'echo reply')" -ge 2
expect "tx on p0: no echo requests" "$(count "$T/tx.pcapng" 'echo request')" -eq 0

# -- summary lines
timeout 30 "$FWDCTL_BIN" -s "$SOCK" capture p1 -c 4 >"$T/summary.out" 2>"$T/summary.err"
expect "summary mode exits 0" "$?" -eq 0
expect "summary mode prints 4 lines" "$(wc -l <"$T/summary.out")" -eq 4
check "lines read 'HH:MM:SS.us p1 tx 98 bytes 10.1.0.1 > 10.1.0.2 ICMP echo request id N seq N'" \
	grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} p1 tx 98 bytes 10\.1\.0\.1 > 10\.1\.0\.2 ICMP echo request id [0-9]+ seq [0-9]+' \
	"$T/summary.out"
check "stderr counts the packets" grep -q "^4 packets captured, 0 dropped" "$T/summary.err"
json_packets() {
	timeout 30 "$FWDCTL_BIN" -s "$SOCK" -j capture p1 -c 2 2>/dev/null |
		json_get "len(d['packets'])"
}
expect "-j gives one JSON document with the packets" "$(json_packets)" = 2

# -- pcapng on stdout into tcpdump
pipe_to_tcpdump() {
	timeout 30 "$FWDCTL_BIN" -s "$SOCK" capture p0 -c 2 -w - 2>/dev/null |
		tcpdump -n -r - 2>/dev/null | grep -q ICMP
}
check "capture -w - | tcpdump -r -" pipe_to_tcpdump

# -- one capture per port; Ctrl-C and a vanished client end it
"$FWDCTL_BIN" -s "$SOCK" capture p0 -w "$T/long.pcapng" 2>"$T/long.err" &
long=$!
must wait_for 10 test -s "$T/long.pcapng"
fwdctl capture p0 -c 1 >"$T/busy.out" 2>&1
expect "a second capture on p0 is refused (exit 1)" "$?" -eq 1
check "with a message saying a capture runs there" grep -q "already running on p0" "$T/busy.out"
check "p1 can be captured meanwhile" ctl capture p1 -c 1
sleep 1
kill -INT "$long"
wait "$long"
expect "Ctrl-C ends the capture with exit 0" "$?" -eq 0
check "and prints the count" grep -q "packets captured" "$T/long.err"
check "the interrupted file is readable" tcpdump -n -r "$T/long.pcapng"
# the daemon notices the client has gone when its next page (at most a
# second away) cannot be written
check "the daemon ends the interrupted session: p0 free again within 10 s" \
	wait_for 10 ctl capture p0 -c 1

"$FWDCTL_BIN" -s "$SOCK" capture p1 >/dev/null 2>&1 &
long=$!
sleep 1
kill -KILL "$long"
wait "$long" 2>/dev/null
check "a killed client's capture ends: p1 free again within 10 s" \
	wait_for 10 ctl capture p1 -c 1

# -- bad requests
check_fails "capture on an unknown port is refused" fwdctl capture p9 -c 1
check_fails "-c 0 is a usage error" fwdctl capture p0 -c 0
check_fails "-w with no file is a usage error" fwdctl capture p0 -w
check_fails "an unwritable -w path fails" ctl capture p0 -c 1 -w /nonexistent/x.pcapng
check "ping still works after all that" ns_exec h1 ping -c 2 -W 1 10.1.0.2

smoke_done
