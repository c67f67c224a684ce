#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fragments on af_packet ports, both families: fragmented echo requests to
# the router are answered once reassembled (reasm/: RFC 8200 5 asks 1,500
# octets after reassembly; ping -s 2000 for IPv4, -s 1453 for IPv6, its
# reply fragmented again by fwd), fragmented UDP to a service behind the
# port's kernel interface arrives whole, and IPv4 fragments through fwd
# are forwarded as they came (port/af_packet.c: the kernel no longer
# reassembles them in front of fwd and cuts the datagram to a ring slot).
#
#   h1 10.72.1.2/24 2001:db8:72:1::2 --- p0 [fwd, tap] p1 --- h2 10.72.2.2/24 2001:db8:72:2::2
. "$(dirname "$0")/lib.sh"

smoke_init frag
ns_add h1 h2 fw
ns_ipv6 h1 h2
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.72.1.2/24 10.72.1.1
ns_host h2 v2 10.72.2.2/24 10.72.2.1
ns_host6 h1 v1 2001:db8:72:1::2/64 2001:db8:72:1::1
ns_host6 h2 v2 2001:db8:72:2::2/64 2001:db8:72:2::1

daemon_config >/dev/null <<-CFG
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", tap: true,
      addresses: [10.72.1.1/24, "2001:db8:72:1::1/64"] }
  - { name: p1, device: "net_af_packet1,iface=d2",
      addresses: [10.72.2.1/24, "2001:db8:72:2::1/64"] }
CFG
# the namespace's own stack sees the frames on d1 and d2 too, and would
# answer for p0's addresses itself: strict reverse-path filtering stops it
# (the way back to h1 is p0, not d1); the counters say fwd answered
ns_exec fw sysctl -qw net.ipv4.conf.all.rp_filter=1
must daemon_start fw "$T/fwd.yaml"
counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }
drops() { fwdctl -j stats | json_get "sum(c['value'] for p in d['ports'] for c in p['drop_reasons'] if c['name'] == '$1')"; }
# how many of 2 pings were answered
received() { ns_exec "$1" ping "${@:2}" -c 2 -W 2 -i 0.3 2>/dev/null | sed -n 's/.* \([0-9]*\) received.*/\1/p'; }

# the neighbours first, with small pings (and fwd's DAD on its IPv6 addresses)
wait_for 5 ns_exec h1 ping -c 1 -W 1 10.72.2.2 >/dev/null
wait_for 8 ns_exec h1 ping -6 -c 1 -W 1 2001:db8:72:2::2 >/dev/null
wait_for 5 ns_exec h1 ping -6 -c 1 -W 1 2001:db8:72:1::1 >/dev/null

# -- to the router: reassembled, answered
e4=$(counter icmp_echo_replies_sent) e6=$(counter icmp6_echo_replies_sent)
expect "ping -s 2000 to the router (IPv4): 2 of 2" "$(received h1 -s 2000 10.72.1.1)" = 2
expect "ping -s 1453 to the router (IPv6): 2 of 2" "$(received h1 -6 -s 1453 2001:db8:72:1::1)" = 2
expect "ping -s 8000 to the router (IPv4): 2 of 2" "$(received h1 -s 8000 10.72.1.1)" = 2
expect "fwd made the IPv4 replies" "$(($(counter icmp_echo_replies_sent) - e4))" = 4
expect "fwd made the IPv6 replies" "$(($(counter icmp6_echo_replies_sent) - e6))" = 2

# -- fragmented UDP to a service on the router's kernel interface
cat >"$T/srv.py" <<'PY'
import socket, threading
def udp(fam, addr):
    s = socket.socket(fam, socket.SOCK_DGRAM); s.bind((addr, 7002))
    while True:
        d, a = s.recvfrom(65535); s.sendto(str(len(d)).encode(), a)
for f, a in ((socket.AF_INET, "10.72.1.1"), (socket.AF_INET6, "2001:db8:72:1::1")):
    threading.Thread(target=udp, args=(f, a), daemon=True).start()
threading.Event().wait()
PY
cat >"$T/cli.py" <<'PY'
import socket, sys
addr = sys.argv[1]
s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(b"u" * 4000, (addr, 7002)); print(s.recv(100).decode())
PY
bg fw "$PY" "$T/srv.py"
sleep 0.5
for a in 10.72.1.1 2001:db8:72:1::1; do
	expect "4,000 bytes of UDP in fragments to the service on $a" \
		"$(ns_exec h1 timeout 5 "$PY" "$T/cli.py" $a 2>&1)" = 4000
done

# -- through fwd: fragments forwarded as they are
expect "ping -s 2000 through fwd (IPv4, af_packet): 2 of 2" "$(received h1 -s 2000 10.72.2.2)" = 2
expect "ping -s 3000 through fwd (IPv4, af_packet): 2 of 2" "$(received h1 -s 3000 10.72.2.2)" = 2
expect "no frame cut short (truncated)" "$(drops truncated)" = 0
expect "nothing dropped as bad_header" "$(drops bad_header)" = 0
expect "datagrams reassembled by fwd" "$(counter reasm_datagrams)" -ge 8
expect "no reassembly pending or dropped" \
	"$(($(drops reasm_timeout) + $(drops reasm_full) + $(drops reasm_invalid) + $(drops reasm_overlap)))" = 0

daemon_stop && pass "daemon stopped cleanly" || fail "daemon stopped cleanly"
smoke_done
