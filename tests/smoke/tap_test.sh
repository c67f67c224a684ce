#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Control-plane ports (ports[].tap): a kernel interface per port in the
# daemon's namespace, with the port's MAC, MTU, state and addresses; TCP and
# UDP services on the router's addresses reached through fwd (both
# families); the kernel's own ping leaves through fwd (fwd resolves the
# host); addresses follow fwdctl and reload, the link follows `port set`; a
# SYN flood ends in the kernel's bounded backlog or as counted drops; the
# interfaces go with the daemon.
#
#   h1 10.71.1.2/24 2001:db8:71:1::2 --- p0 [fwd, tap] p1 --- h2 10.71.2.2/24 2001:db8:71:2::2
# run.sh: alone: it checks that the worker takes in a good part of a SYN flood;
# another daemon's worker polling the same CPU would take half its time
. "$(dirname "$0")/lib.sh"

smoke_init tap
ns_add h1 h2 fw
ns_ipv6 h1 h2
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.71.1.2/24 10.71.1.1
ns_host h2 v2 10.71.2.2/24 10.71.2.1
ns_host6 h1 v1 2001:db8:71:1::2/64 2001:db8:71:1::1
ns_host6 h2 v2 2001:db8:71:2::2/64 2001:db8:71:2::1

# write_cfg [P1_TAP] [EXTRA_P0_ADDRESS]
write_cfg() {
	daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", tap: true,
	      addresses: [10.71.1.1/24, "2001:db8:71:1::1/64" ${2:+, $2}] }
	  - { name: p1, device: "net_af_packet1,iface=d2", tap: ${1:-true},
	      addresses: [10.71.2.1/24, "2001:db8:71:2::1/64"] }
	EOF
}

kaddr() { ip -n "$(ns fw)" addr show dev "$1" 2>/dev/null; }
has_addr() { kaddr "$1" | grep -q "inet6\? $2 "; }
lacks_addr() { ! has_addr "$@"; }
counter() { fwdctl -j stats | json_get "next((c['value'] for c in d['global'] if c['name'] == '$1'), -1)"; }

write_cfg
# a persistent interface p0 left behind (as by an earlier run) is taken over
ip -n "$(ns fw)" tuntap add p0 mode tap
must daemon_start fw "$T/fwd.yaml"

# -- the interfaces
check "p0 exists in the daemon's namespace" ip -n "$(ns fw)" link show p0
expect "p0 has the port's MAC" "$(ns_exec fw cat /sys/class/net/p0/address)" = \
	"$(ns_exec fw cat /sys/class/net/d1/address)"
expect "p0 has the port's MTU" "$(ns_exec fw cat /sys/class/net/p0/mtu)" = 1500
check "p0 is UP and NOARP" bash -c "ip -n $(ns fw) link show p0 | grep -q 'NOARP,UP'"
check "p0 carries 10.71.1.1/24" wait_for 3 has_addr p0 10.71.1.1/24
check "p0 carries 2001:db8:71:1::1/64 (after fwd's DAD)" wait_for 5 has_addr p0 2001:db8:71:1::1/64
# the link-local's DAD may end after the global's (each waits 0-1 s first)
check "p0 carries fwd's link-local address and no other" wait_for 5 \
	bash -c "[ \$(ip -n $(ns fw) -6 addr show dev p0 scope link | grep -c inet6) -eq 1 ]"
check "p1 carries 2001:db8:71:2::1/64" wait_for 5 has_addr p1 2001:db8:71:2::1/64

# -- services on the router's addresses, from a host through fwd
cat >"$T/srv.py" <<'PY'
import socket, sys, threading
def tcp(fam, addr):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, 7001)); s.listen(8)
    while True:
        c, _ = s.accept()
        try: c.sendall(b"hello from the router\n")
        except OSError: pass  # the flood's connections reset
        c.close()
def udp(fam, addr):
    s = socket.socket(fam, socket.SOCK_DGRAM); s.bind((addr, 7002))
    while True:
        d, a = s.recvfrom(2048); s.sendto(d, a)
for f, a in ((socket.AF_INET, "10.71.1.1"), (socket.AF_INET6, "2001:db8:71:1::1")):
    threading.Thread(target=tcp, args=(f, a), daemon=True).start()
    threading.Thread(target=udp, args=(f, a), daemon=True).start()
print("ready", flush=True)
threading.Event().wait()
PY
cat >"$T/cli.py" <<'PY'
import socket, sys
proto, addr = sys.argv[1], sys.argv[2]
fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
if proto == "tcp":
    s = socket.create_connection((addr, 7001), timeout=3); print(s.recv(100).decode().strip())
else:
    s = socket.socket(fam, socket.SOCK_DGRAM); s.settimeout(3)
    s.sendto(b"echo me", (addr, 7002)); print(s.recv(100).decode())
PY
bg fw "$PY" "$T/srv.py"
sleep 0.5
for a in 10.71.1.1 2001:db8:71:1::1; do
	expect "TCP to $a from h1" "$(ns_exec h1 timeout 5 "$PY" "$T/cli.py" tcp $a 2>&1)" = \
		"hello from the router"
	expect "UDP echo on $a from h1" "$(ns_exec h1 timeout 5 "$PY" "$T/cli.py" udp $a 2>&1)" = \
		"echo me"
done
ns_exec h1 timeout 5 "$PY" -c 'import socket; s=socket.socket(); s.settimeout(3)
try: s.connect(("10.71.1.1", 7999)); print("open")
except ConnectionRefusedError: print("refused")' >"$T/rst" 2>&1
expect "TCP to a closed port: the kernel's RST" "$(cat "$T/rst")" = refused
expect "ping to the router: fwd answers" "$(ns_exec h1 ping -c 1 -W 2 10.71.1.1 >/dev/null && echo ok)" = ok

# -- the kernel's own traffic leaves through fwd, resolved by fwd
# (a TCP connection the router opens, as bgpd does towards a peer: its SYN
# goes down, the SYN-ACK comes up)
cat >"$T/hsrv.py" <<'PY'
import socket, sys, threading
def tcp(fam, addr):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, 7001)); s.listen(8)
    while True:
        c, _ = s.accept()
        try: c.sendall(b"hello from the router\n")
        except OSError: pass
        c.close()
for f, a in ((socket.AF_INET, "10.71.2.2"), (socket.AF_INET6, "2001:db8:71:2::2")):
    threading.Thread(target=tcp, args=(f, a), daemon=True).start()
threading.Event().wait()
PY
bg h2 "$PY" "$T/hsrv.py"
sleep 0.3
for a in 10.71.2.2 2001:db8:71:2::2; do
	expect "TCP from the router namespace to h2 ($a)" \
		"$(ns_exec fw timeout 5 "$PY" "$T/cli.py" tcp $a 2>&1)" = "hello from the router"
done
ns_exec h2 timeout 5 "$PY" -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 7009)); s.settimeout(4); print(s.recv(100).decode())' >"$T/bcast" 2>&1 &
bpid=$!
sleep 0.5
ns_exec fw "$PY" -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1); s.sendto(b"to the link", ("10.71.2.255", 7009))'
wait $bpid
expect "a UDP broadcast to p1's subnet from the router namespace reaches h2" "$(cat "$T/bcast")" = "to the link"
h1ll=$(eui64_ll "$(ns_exec h1 cat /sys/class/net/v1/address)")
check "ping from the router namespace to h1's link-local address on p0" \
	ns_exec fw ping -6 -c 1 -W 2 "$h1ll%p0"
up0=$(counter tap_up_frames)
down0=$(counter tap_down_frames)
check "ping from the router namespace to h2 (IPv4)" ns_exec fw ping -c 2 -i 0.2 -W 2 10.71.2.2
check "ping from the router namespace to h2 (IPv6)" ns_exec fw ping -6 -c 2 -i 0.2 -W 2 2001:db8:71:2::2
check "fwd resolved h2 itself (neigh list)" \
	bash -c "$FWDCTL_BIN -s $SOCK neigh list | grep -q 10.71.2.2"
expect "frames down the TAPs counted" "$(counter tap_down_frames)" -ge $((down0 + 4))
expect "frames up the TAPs counted (the replies)" "$(counter tap_up_frames)" -ge $((up0 + 4))
expect "no ARP from the kernel" "$(counter tap_down_arp)" -eq 0
ifindex=$(ns_exec fw cat /sys/class/net/p1/ifindex)
expect "port show p1 -j: the interface's name and ifindex" \
	"$(fwdctl -j port show p1 | json_get "d['tap']['name'] + ' ' + str(d['tap']['ifindex'])")" = "p1 $ifindex"
expect "port show p1 -j: frames down counted on the port" \
	"$(fwdctl -j port show p1 | json_get "d['tap']['down']")" -ge 4
check "port show p1: the kernel interface line" \
	bash -c "$FWDCTL_BIN -s $SOCK port show p1 | grep -q 'kernel interface: *p1 (ifindex $ifindex), up [1-9]'"

# -- addresses follow fwdctl and reload, the link follows port set
check "fwdctl addr add 10.71.9.1/24 dev p0" fwdctl addr add 10.71.9.1/24 dev p0
check "p0 gets it" wait_for 3 has_addr p0 10.71.9.1/24
check "fwdctl addr del 10.71.9.1/24 dev p0" fwdctl addr del 10.71.9.1/24 dev p0
check "p0 loses it" wait_for 3 lacks_addr p0 10.71.9.1/24
check "port set p0 down" fwdctl port set p0 down
check "p0 goes down" wait_for 3 bash -c "! ip -n $(ns fw) link show p0 | grep -q ',UP'"
check "port set p0 up" fwdctl port set p0 up
check "p0 comes up" wait_for 3 bash -c "ip -n $(ns fw) link show p0 | grep -q ',UP'"
write_cfg false 10.71.8.1/24
check "config reload: an address on p0, p1 without tap" fwdctl config reload
check "p0 gets 10.71.8.1/24" wait_for 3 has_addr p0 10.71.8.1/24
check "p1's interface is gone" wait_for 3 bash -c "! ip -n $(ns fw) link show p1"
write_cfg
check "config reload back" fwdctl config reload
check "p0 loses 10.71.8.1/24" wait_for 3 lacks_addr p0 10.71.8.1/24
check "p1's interface is back with its address" wait_for 5 has_addr p1 10.71.2.1/24

# -- a SYN flood to the router's address: every frame is accounted for (up
# the TAP, or a counted drop), nothing grows without bound
rss() { awk '/VmRSS/ {print $2}' "/proc/$DAEMON_PID/status"; }
punt_drops() { fwdctl -j stats | json_get "sum(c['value'] for p in d['ports'] for c in p['drop_reasons'] if c['name'] in ('punt_full', 'hold_full') or c['name'].startswith('policed_'))"; }
rx0() { fwdctl -j stats p0 | json_get "d['ports'][0]['rx_packets']"; }
rss0=$(rss)
rx0=$(rx0)
up0=$(counter tap_up_frames)
upd0=$(counter tap_up_dropped)
pd0=$(punt_drops)
ns_exec h1 timeout 30 "$PY" - <<'PY' >"$T/flood" 2>&1
import random, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP)
src, dst = socket.inet_aton("10.71.1.2"), socket.inet_aton("10.71.1.1")
def csum(b):
    if len(b) % 2: b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b)); t = (t >> 16) + (t & 0xffff)
    return ~(t + (t >> 16)) & 0xffff
for i in range(20000):
    h = struct.pack("!HHIIBBHHH", 20000 + i % 40000, 7001, random.getrandbits(32), 0, 0x50, 0x02, 65535, 0, 0)
    c = csum(src + dst + struct.pack("!BBH", 0, 6, 20) + h)
    s.sendto(h[:16] + struct.pack("!H", c) + h[18:], ("10.71.1.1", 0))
print("sent")
PY
sleep 2
sent=20000
rx=$(($(rx0) - rx0))
accounted=$(($(counter tap_up_frames) - up0 + $(counter tap_up_dropped) - upd0 + $(punt_drops) - pd0))
log "SYN flood: $sent sent, $rx received by fwd, $(($(counter tap_up_frames) - up0)) up the TAP, $(($(counter tap_up_dropped) - upd0)) dropped at the TAP, $(($(punt_drops) - pd0)) punt drops, RSS $rss0 -> $(rss) kB"
expect "the flood was sent" "$(cat "$T/flood")" = sent
expect "fwd received a good part of the flood" "$rx" -ge $((sent / 5))
# what fwd received is up the TAP or a counted drop (a few frames of other
# kinds aside: ARP, NDP, the RSTs the host sends for the SYN-ACKs)
expect "every SYN fwd received is up the TAP or a counted drop" "$accounted" -ge $((rx * 95 / 100))
expect "the daemon's memory did not grow by more than 16 MB" "$(rss)" -le $((rss0 + 16384))
check "the daemon answers after the flood" fwdctl status
check "the TCP service still answers" bash -c "[ \"\$(ip netns exec $(ns h1) timeout 5 $PY $T/cli.py tcp 10.71.1.1)\" = 'hello from the router' ]"

# -- a tap on a port that is not l3 is refused, naming the place
daemon_config >/dev/null <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: xconnect, peer: p1, tap: true }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: xconnect, peer: p0 }
EOF
"$FWD_DAEMON" -c "$T/fwd.yaml" --check >"$T/bad" 2>&1
check "tap on an xconnect port: file:line:col and the reason" \
	grep -q "fwd.yaml:[0-9]*:[0-9]*.*only l3 ports have a kernel interface" "$T/bad"

# -- gone with the daemon
daemon_stop && pass "daemon stopped cleanly" || fail "daemon stopped cleanly"
check "p0 is gone after the daemon stops" bash -c "! ip -n $(ns fw) link show p0 2>/dev/null"
check "p1 is gone after the daemon stops" bash -c "! ip -n $(ns fw) link show p1 2>/dev/null"
smoke_done
