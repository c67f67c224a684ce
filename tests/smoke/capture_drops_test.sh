#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Drop capture: `fwdctl capture drops` records the packets the router drops
# with their reason and port. Three reasons are triggered (no route and TTL
# exceeded from h1 on p0, a bad IPv4 checksum from h2 on p1) and read back
# from the pcapng packet comments with tshark; REASON filtering, -c, the
# summary lines, unknown names refused (by fwdctl and by the daemon), -l,
# one drop capture at a time; a drop made by the control thread (bad ICMP
# checksum to the router).
#
#   h1 10.41.1.2/24 --- p0 10.41.1.1 [fwd] p1 10.41.2.1 --- h2 10.41.2.2/24
. "$(dirname "$0")/lib.sh"

smoke_init capdrop
ns_add h1 h2 fw
for h in h1 h2 fw; do
	ns_exec $h sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.41.1.2/24 10.41.1.1
ns_host h2 v2 10.41.2.2/24 10.41.2.1

cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.41.1.1/24] }
  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.41.2.1/24] }
EOF
)
ctl() { timeout 30 "$FWDCTL_BIN" -s "$SOCK" "$@"; }
must daemon_start fw "$cfg"
must wait_for 10 ns_exec h1 ping -c 1 -W 1 10.41.2.2

# send_bad DST IP|ICMP: an IPv4 echo request from h2 to DST through p1 (its
# MAC is d2's: af_packet ports take their interface's address) with a wrong
# IP header checksum (dropped by a worker) or a wrong ICMP checksum (to the
# router: dropped by the control thread).
P1_MAC=$(ns_exec fw cat /sys/class/net/d2/address)
send_bad() {
	ns_exec h2 "$PY" - "$P1_MAC" "$1" "$2" <<-'EOF'
	import socket, struct, sys
	def csum(b):
	    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
	    s = (s & 0xffff) + (s >> 16)
	    return ~((s & 0xffff) + (s >> 16)) & 0xffff
	dst = bytes.fromhex(sys.argv[1].replace(":", ""))
	src = bytes.fromhex(open("/sys/class/net/v2/address").read().strip().replace(":", ""))
	hdr = lambda c: struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 1, 0, 64, 1, c,
	                            socket.inet_aton("10.41.2.2"), socket.inet_aton(sys.argv[2]))
	ip = hdr(0x1234) if sys.argv[3] == "IP" else hdr(csum(hdr(0)))
	icmp = bytes([8, 0, 0xf7, 0xff if sys.argv[3] == "IP" else 0x00, 0, 0, 0, 0])
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
	s.bind(("v2", 0))
	s.send(dst + src + b"\x08\x00" + ip + icmp + bytes(18))
	EOF
}
bad_checksum() { send_bad 10.41.1.2 IP; }
# One round of the three drops, in this order, each handled before the next
# leaves (the pings wait for the router's ICMP error).
trigger_round() {
	ns_exec h1 ping -c 1 -W 1 10.99.0.1 >/dev/null 2>&1      # no_route
	ns_exec h1 ping -c 1 -W 1 -t 1 10.41.2.2 >/dev/null 2>&1 # ttl_exceeded
	bad_checksum                                             # bad_checksum
}
# trigger_until PID: rounds until the capture PID ends (at most 40).
trigger_until() {
	for _ in $(seq 40); do
		kill -0 "$1" 2>/dev/null || return 0
		trigger_round
	done
}

# -- pcapng with the reason and port in each packet's comment
PCAP=$T/drops.pcapng
ctl capture drops no_route ttl_exceeded bad_checksum -c 3 -w "$PCAP" 2>"$T/drops.err" &
cap=$!
trigger_until $cap
wait $cap
expect "capture drops -c 3 -w FILE ends by itself with exit 0" "$?" -eq 0
# (tshark takes seconds to start: one run reads comments and ICMP types)
tshark -r "$PCAP" -T fields -e frame.comment -e icmp.type >"$T/comments" 2>"$T/tshark.err"
expect "tshark reads 3 packets" "$(wc -l <"$T/comments")" -eq 3
tab=$'\t'
check "no_route from h1, on p0" grep -qx "drop reason=no_route port=p0${tab}8" "$T/comments"
check "ttl_exceeded from h1, on p0" grep -qx "drop reason=ttl_exceeded port=p0${tab}8" "$T/comments"
check "bad_checksum from h2, on p1" grep -qx "drop reason=bad_checksum port=p1${tab}8" "$T/comments"
# (tcpdump 4.99 reads the file, but its libpcap 1.10 does not pass comments on)
expect "tcpdump reads the 3 packets" "$(tcpdump -n -r "$PCAP" 2>/dev/null | grep -c ICMP)" -eq 3

# -- a drop by the control thread (fwd_control_drop): a bad ICMP checksum to the router
ctl capture drops icmp_invalid -c 1 -w "$T/icmp.pcapng" 2>/dev/null &
cap=$!
for _ in $(seq 40); do
	kill -0 $cap 2>/dev/null || break
	send_bad 10.41.2.1 ICMP
	sleep 0.2
done
wait $cap
expect "capture drops icmp_invalid -c 1 ends with exit 0" "$?" -eq 0
expect "the control thread's drop is captured with its reason and port" \
	"$(tshark -r "$T/icmp.pcapng" -T fields -e frame.comment 2>/dev/null)" = \
	"drop reason=icmp_invalid port=p1"

# -- REASON filtering, -c, summary lines
ctl capture drops ttl_exceeded -c 2 >"$T/ttl.out" 2>"$T/ttl.err" &
cap=$!
trigger_until $cap
wait $cap
expect "capture drops ttl_exceeded -c 2 exits 0" "$?" -eq 0
expect "it prints 2 lines" "$(wc -l <"$T/ttl.out")" -eq 2
expect "both are ttl_exceeded on p0 (no other reason)" \
	"$(grep -Ec '^[0-9:.]+ p0 drop ttl_exceeded 98 bytes 10\.41\.1\.2 > 10\.41\.2\.2 ICMP echo request' "$T/ttl.out")" -eq 2
check "stderr counts them" grep -q "^2 packets captured" "$T/ttl.err"

# -- one drop capture at a time; bad requests
"$FWDCTL_BIN" -s "$SOCK" capture drops -w "$T/long.pcapng" 2>/dev/null &
long=$!
must wait_for 10 test -s "$T/long.pcapng"
fwdctl capture drops -c 1 >"$T/busy.out" 2>&1
expect "a second drop capture is refused (exit 1)" "$?" -eq 1
check "saying one runs" grep -q "drop capture is already running" "$T/busy.out"
kill -INT "$long"
wait "$long"
fwdctl capture drops no_rout -c 1 >"$T/bad.out" 2>&1
expect "an unknown reason is a usage error (exit 2)" "$?" -eq 2
check "naming it and listing the valid ones" \
	grep -q "unknown drop reason: no_rout" "$T/bad.out"
check "the list has ttl_exceeded and no_route" grep -q "valid reasons:.* ttl_exceeded no_route " "$T/bad.out"
# the daemon checks too (a client other than fwdctl): EINVAL, nothing started
daemon_refuses() {
	"$PY" - "$SOCK" <<-'EOF'
	import os, sys
	sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests/smoke"))
	from fwdrpc import Client, field
	c = Client(sys.argv[1])
	bad = [field(6, 0, 1) + field(7, 2, b"bogus"),              # unknown reason
	       field(6, 0, 1) + field(1, 2, b"p0"),                 # drops with a port
	       field(1, 2, b"p0") + field(7, 2, b"no_route"),       # reasons, no drops
	       field(6, 0, 1) + field(7, 2, b"no_route" * 8)]       # long garbage
	sys.exit(0 if all(c.call(70, b)[0] == 22 for b in bad) else 1)
	EOF
}
check "the daemon refuses bad drop capture requests (EINVAL)" daemon_refuses
check "capture drops -l lists the reasons, one a line with its meaning" \
	sh -c "'$FWDCTL_BIN' capture drops -l | grep -q '^bad_checksum  *IPv4 header checksum\$'"
check "ping still works after all that" ns_exec h1 ping -c 2 -W 1 10.41.2.2

smoke_done
