#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ACLs (doc/acl.md): an ssh-like TCP port blocked on acl_in while another
# passes, reject's ICMP administratively prohibited seen by the sender,
# acl_local keeping one subnet away from the router's own services (echo)
# but not another, acl list/show with hits, stats clear, capture drops acl,
# monitor, an ACL swapped by reload under a 20 pps ping with zero loss, and
# a reload that changes a flow's verdict (the workers' caches hold none).
#
#   h1 10.51.1.2 --- p0 [fwd] p1 10.51.2.1 --- h2 10.51.2.2
. "$(dirname "$0")/lib.sh"

smoke_init acl
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.51.1.2/24 10.51.1.1
ns_host h2 v2 10.51.2.2/24 10.51.2.1

# write_cfg BLOCKED_PORT [RULE]: edge-in denies TCP to that port, rejects
# 23, then RULE
write_cfg() {
	daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.51.1.1/24], acl_in: edge-in }
	  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.51.2.1/24] }
	control:
	  acl_local: mgmt
	acls:
	  - name: edge-in
	    default: permit
	    rules:
	      - { action: deny, proto: tcp, dport: $1 }
	      - { action: reject, proto: tcp, dport: 23 }
	      ${2:+- $2}
	  - name: mgmt
	    rules:
	      - { action: permit, src: 10.51.2.0/24 }
	EOF
	# (daemon_config wrote control: already; the second one is this file's own)
	"$PY" - "$T/fwd.yaml" <<-'EOF'
	import sys
	p = sys.argv[1]; s = open(p).read()
	s = s.replace("  socket_group: root\n", "  socket_group: root\n  acl_local: mgmt\n", 1)
	s = s.replace("control:\n  acl_local: mgmt\n", "", 1)
	open(p, "w").write(s)
	EOF
}

# listen PORT...: TCP servers on h2 that accept and close
bg h2 "$PY" -c '
import socket, select, sys
ss = []
for p in (22, 80, 2222, 23):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("10.51.2.2", p)); s.listen(16); ss.append(s)
while True:
    for s in select.select(ss, [], [])[0]:
        c, _ = s.accept(); c.close()
'
# tcp PORT: connect from h1; prints ok, or the errno name
tcp() {
	ns_exec h1 "$PY" -c '
import errno, socket, sys
s = socket.socket(); s.settimeout(2)
try:
    s.connect(("10.51.2.2", int(sys.argv[1]))); print("ok")
except socket.timeout:
    print("timeout")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))
' "$1"
}
hits() { fwdctl -j acl show edge-in | json_get "[r.get('packets', 0) for r in d['rules'] if r.get('index', 0) == $1][0]"; }
drops() { fwdctl -j stats "$1" | json_get "next((c['value'] for c in d['ports'][0]['drop_reasons'] if c['name'] == 'acl'), -1)"; }

write_cfg 22
must daemon_start fw "$T/fwd.yaml"
must wait_for 10 ns_exec h1 ping -c 1 -W 1 10.51.2.2

echo "-- acl_in"
expect "TCP to port 80 passes" "$(tcp 80)" = ok
expect "TCP to port 22 is dropped (the SYN times out)" "$(tcp 22)" = timeout
expect "TCP to port 23 is refused with ICMP (EHOSTUNREACH)" "$(tcp 23)" = EHOSTUNREACH
expect "the deny rule counted its SYNs" "$(hits 1)" -ge 1
expect "the reject rule counted its SYN" "$(hits 2)" -ge 1
expect "p0 counts the drops as acl" "$(drops p0)" -ge 2
check "acl list shows edge-in on p0" sh -c "'$FWDCTL_BIN' -s '$SOCK' acl list | grep -E '^edge-in +permit +2 .* p0 '"
check "acl show prints the rules" sh -c "'$FWDCTL_BIN' -s '$SOCK' acl show edge-in | grep -E '^ *1 +deny .* tcp .* 22 '"
check_fails "acl show of an unknown ACL fails" fwdctl acl show nope

echo "-- capture drops acl"
fwdctl capture drops acl -c 1 >"$T/cap.out" 2>&1 &
cap=$!
for i in $(seq 1 20); do
	kill -0 $cap 2>/dev/null || break
	tcp 22 >/dev/null
done
wait $cap
expect "capture drops acl sees a dropped SYN and ends" "$?" -eq 0
check "it is a TCP segment to port 22, dropped as acl on p0" \
	grep -Eq '^[0-9:.]+ p0 drop acl [0-9]+ bytes 10\.51\.1\.2 > 10\.51\.2\.2 .*22' "$T/cap.out"

echo "-- stats clear"
fwdctl stats clear
expect "stats clear zeroes the rules' hits" "$(hits 1)" -eq 0

echo "-- acl_local"
check "h2 (10.51.2.0/24, permitted) pings the router" ns_exec h2 ping -c 2 -i 0.2 -W 1 10.51.2.1
check_fails "h1 (not permitted) does not" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.51.1.1
expect "mgmt's default counted h1's echoes" "$(fwdctl -j acl show mgmt | json_get "d['rules'][0].get('packets', 0)")" -ge 2

echo "-- reload under a 20 pps ping"
"$FWDCTL_BIN" -s "$SOCK" monitor config >"$T/mon.txt" 2>&1 &
mon=$!
sleep 0.5
ns_exec h1 ping -q -i 0.05 -c 80 -W 1 10.51.2.2 >"$T/ping.out" 2>&1 &
png=$!
for port in 2222 22 2222 22; do
	sleep 0.7
	write_cfg $port
	fwdctl config reload >/dev/null || fail "reload with port $port"
done
wait $png
loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$T/ping.out")
expect "no ping lost while edge-in was swapped 4 times" "$loss" = 0
write_cfg 2222
fwdctl config reload >/dev/null
expect "after the reload port 22 passes" "$(tcp 22)" = ok
expect "and 2222 is dropped" "$(tcp 2222)" = timeout

echo "-- a reload never answers from the verdicts cached before it"
check "h1's pings pass edge-in (its worker caches the verdict)" \
	ns_exec h1 ping -c 3 -i 0.2 -W 1 10.51.2.2
write_cfg 2222 "{ action: deny, proto: icmp }"
fwdctl config reload >/dev/null
check_fails "the same pings are dropped after a reload that denies ICMP" \
	ns_exec h1 ping -c 2 -i 0.2 -W 1 10.51.2.2
write_cfg 2222
fwdctl config reload >/dev/null
check "and pass again after the next" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.51.2.2

echo "-- detaching"
sed -i 's/, acl_in: edge-in//' "$T/fwd.yaml"
fwdctl config reload >"$T/reload.out" 2>&1
check "the reload says p0 lost its acl_in" grep -q 'port p0: acl_in none' "$T/reload.out"
expect "without acl_in port 2222 passes" "$(tcp 2222)" = ok
check "acl list shows edge-in on no port" sh -c "'$FWDCTL_BIN' -s '$SOCK' acl list | grep -E '^edge-in +permit +2 +[0-9]+ +[0-9]+ +- '"
sleep 0.3
kill $mon 2>/dev/null
wait $mon 2>/dev/null
check "monitor reported the ACL change" grep -q 'acl edge-in: replaced' "$T/mon.txt"

smoke_done
