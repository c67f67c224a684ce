#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `fwdctl capture` on a VLAN interface: a host sends frames tagged VLAN 100
# and 200 on the daemon's port; `capture p0.100` shows VLAN 100's only,
# untagged (as Linux's tcpdump shows a VLAN device's), in summary lines and
# in pcapng; `capture p0` shows the same frames with their tags; deleting
# the interface ends its capture.
. "$(dirname "$0")/lib.sh"

smoke_init capture_vlan
ns_add h1 fw
for h in h1 fw; do
	ns_exec $h sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
veth h1 v1 fw d1

cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.1.0.254/24] }
interfaces:
  - { name: p0.100, port: p0, vlan: 100 }
  - { name: lo0, loopback: true }
EOF
)
ctl() { timeout 30 "$FWDCTL_BIN" -s "$SOCK" "$@"; }
must daemon_start fw "$cfg"

# send VID...: one UDP frame 10.1.0.1 > 10.1.0.254 (payload 20 bytes) per
# VID (0: untagged), from h1's v1, raw (no scapy: it takes seconds to import)
send() {
	ns_exec h1 "$PY" - "$@" <<-'EOF'
	import socket, struct, sys
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
	s.bind(("v1", 0))
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 48, 1, 0, 64, 17, 0,
	                 socket.inet_aton("10.1.0.1"), socket.inet_aton("10.1.0.254"))
	udp = struct.pack("!HHHH", 4000, 9, 28, 0) + bytes(20)
	for vid in map(int, sys.argv[1:]):
	    tag = struct.pack("!HH", 0x8100, vid) if vid else b""
	    s.send(b"\xff" * 6 + bytes.fromhex("02aa00000001") + tag + b"\x08\x00" + ip + udp)
	EOF
}

# capture_while OUT ARGS...: start `fwdctl capture ARGS` (stdout to OUT),
# then send 200 100 0 200 100 100 until it ends (or 20 s)
capture_while() {
	local out=$1 pid i
	shift
	"$FWDCTL_BIN" -s "$SOCK" capture "$@" >"$out" 2>"$out.err" &
	pid=$!
	sleep 1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$pid" 2>/dev/null || break
		send 200 100 0 200 100 100
		sleep 1
	done
	timeout 10 tail --pid="$pid" -f /dev/null
	wait "$pid"
}

check "capture p0.100 rx -c 3 ends" capture_while "$T/vlan.out" p0.100 rx -c 3
expect "3 summary lines" "$(wc -l <"$T/vlan.out")" -eq 3
expect "each is p0.100's, untagged (62 bytes), from 10.1.0.1" \
	"$(grep -Ec '^[0-9:.]+ p0\.100 rx 62 bytes 10\.1\.0\.1 > 10\.1\.0\.254 UDP' "$T/vlan.out")" -eq 3
check_fails "no tag in them" grep -q vlan "$T/vlan.out"

check "capture p0.100 -c 2 -w FILE ends" capture_while "$T/vlan.pcap" p0.100 rx -c 2 -w "$T/vlan.pcapng"
tcpdump -e -n -r "$T/vlan.pcapng" >"$T/tcpdump.out" 2>/dev/null
expect "tcpdump reads 2 frames" "$(wc -l <"$T/tcpdump.out")" -eq 2
expect "untagged IPv4 of 62 bytes" "$(grep -c 'ethertype IPv4 (0x0800), length 62' "$T/tcpdump.out")" -eq 2

check "capture p0 rx -c 6 ends" capture_while "$T/port.out" p0 rx -c 6
expect "the port's capture shows VLAN 100's tagged" "$(grep -c ' p0 rx 66 bytes vlan 100 ' "$T/port.out")" -ge 1
expect "... and VLAN 200's" "$(grep -c ' p0 rx 66 bytes vlan 200 ' "$T/port.out")" -ge 1

# -- deleting the VLAN interface ends its capture
"$FWDCTL_BIN" -s "$SOCK" capture p0.100 >/dev/null 2>"$T/del.err" &
cap=$!
sleep 1
check "iface del p0.100 under a capture" ctl iface del p0.100
check "the capture ends within 5 s" timeout 5 tail --pid="$cap" -f /dev/null
wait "$cap"
expect "... exiting 1" "$?" -eq 1
check "... saying why" grep -q "the VLAN interface was deleted" "$T/del.err"

check_fails "capture on a loopback is refused" ctl capture lo0 -c 1
check_fails "capture on an unknown interface is refused" ctl capture p0.77 -c 1
smoke_done
