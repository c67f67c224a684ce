#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FPM: routes of both families from a zebra-like client (fpm_send.py) on
# control.fpm. They show with their protocol as origin, traffic follows
# them, a delete removes; a malformed frame closes the connection with a
# counted error and the routes stay; fwd's own routes win on the same
# prefix and a reload leaves zebra's alone; a reconnection with a partial
# replay removes what was not sent again once the grace is over; a reload
# moves the listener; a bulk replay keeps the RPC prompt. Only root and
# control.fpm_user may connect: a process running as nobody is closed
# unread, counted, and leaves root's session alone. Routes with an MPLS
# push are refused; 100 updates of a group 20,000 routes use keep the RPC
# prompt too.
#
#   h1 10.41.1.2/24 --- p0 10.41.1.1 [fwd] p1 10.41.2.1 --- h2 10.41.2.2/24
#      2001:db8:41:1::2    2001:db8:41:1::1  2001:db8:41:2::1    2001:db8:41:2::2
#                                         (h2's lo: 10.41.3.1/24, 10.41.4.1/24,
#                                          2001:db8:41:3::1/64)
. "$(dirname "$0")/lib.sh"

smoke_init fpm
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ns_host h1 v1 10.41.1.2/24 10.41.1.1
ns_host h2 v2 10.41.2.2/24 10.41.2.1
ip -n "$(ns h2)" addr add 10.41.3.1/24 dev lo
ip -n "$(ns h2)" addr add 10.41.4.1/24 dev lo
ns_ipv6 h1 h2
ns_host6 h1 v1 2001:db8:41:1::2/64 2001:db8:41:1::1
ns_host6 h2 v2 2001:db8:41:2::2/64 2001:db8:41:2::1
ip -n "$(ns h2)" -6 addr add 2001:db8:41:3::1/64 dev lo nodad
FPM=127.0.0.1:2620

write_cfg() {
	daemon_config >/dev/null <<-EOF
	  fpm: "$FPM"
	  fpm_grace_s: 2
	${FPM_USER:+  fpm_user: $FPM_USER}
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.41.1.1/24, "2001:db8:41:1::1/64"] }
	  - { name: p1, device: "net_af_packet1,iface=d2", addresses: [10.41.2.1/24, "2001:db8:41:2::1/64"${P1_EXTRA:-}] }
	${1:-}
	EOF
}

send() { ns_exec fw timeout 60 "$PY" "$SRCDIR/tests/smoke/fpm_send.py" "$FPM" "$@"; }
send_as() { # USER GROUP ARGS: send as another user
	local u=$1 g=$2
	shift 2
	ns_exec fw setpriv --reuid="$u" --regid="$g" --clear-groups \
		timeout 60 "$PY" "$SRCDIR/tests/smoke/fpm_send.py" "$FPM" "$@"
}
fpm() { fwdctl -j status | json_get "d['fpm'].get('$1', 0)"; }
fpm_counter() { fwdctl -j status | json_get "[c.get('value', 0) for c in d['fpm']['$1'] if c['name']=='$2'][0]"; }
origin() { fwdctl -j route list | json_get "([r.get('origin') for r in d['routes'] if r['prefix']=='$1'] + ['none'])[0]"; }
tx_p1() { fwdctl -j stats | json_get "[p['tx_packets'] for p in d['ports'] if p['name']=='p1'][0]"; }

write_cfg
must daemon_start fw "$T/fwd.yaml"
expect "status: fpm listening on $FPM" "$(fpm listening)" = True
expect "status: not connected" "$(fpm connected)" = False

# -- routes in, origin, traffic, delete
check "zebra sends a BGP route and a blackhole" \
	send "add 10.41.3.0/24 via 10.41.2.2 proto 186" "add 10.41.5.0/24 blackhole proto 196"
check "route list shows 10.41.3.0/24 with origin bgp" wait_for 5 \
	bash -c "[ \"\$($FWDCTL_BIN -s $SOCK route list | awk '\$1==\"10.41.3.0/24\" {print \$NF}')\" = bgp ]"
expect "JSON origin bgp" "$(origin 10.41.3.0/24)" = bgp
expect "JSON origin static for the blackhole (staticd)" "$(origin 10.41.5.0/24)" = static
tx0=$(tx_p1)
check "h1 reaches 10.41.3.1 through zebra's route" ns_exec h1 ping -c 3 -i 0.2 -W 1 10.41.3.1
expect "p1 sent the traffic (tx counter moved)" "$(tx_p1)" -ge $((tx0 + 3))
expect "status: 2 routes installed" "$(fpm installed)" -eq 2
expect "status: by origin bgp 1" "$(fpm_counter installed_by_origin bgp)" -eq 1
expect "the connection closed: still not connected, routes stay" "$(fpm connected)" = False
check "zebra deletes 10.41.3.0/24" send "del 10.41.3.0/24"
check "the route is gone" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | grep -c 10.41.3.0/24)\" = 0 ]"
ns_exec h1 ping -c 1 -W 1 10.41.3.1 >"$T/unreach" 2>&1
check "after the delete: net unreachable" grep -q "Destination Net Unreachable" "$T/unreach"

# -- who may connect: root and control.fpm_user (frr by default); anyone
#    else is closed before a byte is read, counted, and zebra's session
#    (here root's, held open past the sweep: it sends the routes to keep)
#    goes on
send --hold 6 "add 10.41.30.0/24 blackhole" "add 10.41.5.0/24 blackhole proto 196" &
held=$!
SMOKE_PIDS+=("$held")
check "root's session is up" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print(json.load(sys.stdin)[\"fpm\"].get(\"connected\", False))')\" = True ]"
check "a process running as nobody is closed" \
	send_as nobody nogroup --expect-close 5 "add 10.41.31.0/24 blackhole"
expect "refused and counted" "$(fpm refused)" -eq 1
expect "its route is not installed" "$(origin 10.41.31.0/24)" = none
expect "root's session is still connected" "$(fpm connected)" = True
expect "... as uid 0" "$(fpm peer_uid)" -eq 0
check "status names the refused peer" bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm last refused peer:.*uid 65534 is neither root nor frr'"
check "the daemon log says why" grep -q "FPM connection refused (1 so far).*uid 65534" "$T/daemon.log"
wait "$held"
expect "root's route is in" "$(origin 10.41.30.0/24)" = bgp
FPM_USER=nobody write_cfg
check "config reload with fpm_user: nobody" fwdctl config reload
check "nobody may connect now" send_as nobody nogroup "add 10.41.31.0/24 blackhole"
check "... and its route is in" wait_for 5 bash -c "$FWDCTL_BIN -s $SOCK -j route list | grep -q 10.41.31.0/24"
expect "not counted as refused" "$(fpm refused)" -eq 1
FPM_USER=no-such-user-fwd write_cfg
check "config reload with a user that does not exist" fwdctl config reload
check "status: root only" bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm peers: *root only (no user no-such-user-fwd)'"
check "root still may" send "del 10.41.30.0/24" "del 10.41.31.0/24"
write_cfg
fwdctl config reload >/dev/null

# -- a route that pushes an MPLS label is refused, counted by kind
check "zebra sends a route with an MPLS label push" send "add 10.41.32.0/24 via 10.41.2.2 mpls 100"
check "it is refused and counted (refused_mpls)" wait_for 5 bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm counters:.*refused_mpls 1'"
expect "not installed" "$(origin 10.41.32.0/24)" = none
send "del 10.41.32.0/24"

# -- a multipath route and the drop types (unreachable, prohibit)
check "zebra sends a two-way multipath route, an unreachable and a prohibit one" \
	send "add 10.41.10.0/24 via 10.41.2.2,10.41.2.3 proto 186" \
	"add 10.41.11.0/24 unreachable" "add 10.41.12.0/24 prohibit"
sleep 0.5
expect "the multipath route is in" "$(origin 10.41.10.0/24)" = bgp
check "with both next hops" bash -c "$FWDCTL_BIN -s $SOCK route get 10.41.10.1 | grep -q 10.41.2.3"
expect "the unreachable and prohibit routes are in" \
	"$(origin 10.41.11.0/24)/$(origin 10.41.12.0/24)" = bgp/bgp
send "del 10.41.10.0/24" "del 10.41.11.0/24" "del 10.41.12.0/24"

# -- IPv6
all_preferred() { [ "$(fwdctl -j -6 addr list | json_get "sorted(set(a.get('state','') for a in d['addresses']))")" = "['preferred']" ]; }
check "fwd's IPv6 addresses are preferred (DAD over)" wait_for 10 all_preferred
check "zebra sends an IPv6 OSPF route" send "add 2001:db8:41:3::/64 via 2001:db8:41:2::2 proto 188"
check "it is in with origin ospf" wait_for 5 bash -c "$FWDCTL_BIN -s $SOCK -6 route list | grep -q '^2001:db8:41:3::/64 .*ospf\$'"
check "h1 reaches 2001:db8:41:3::1 through it" ns_exec h1 ping -6 -c 3 -i 0.2 -W 1 2001:db8:41:3::1
fails0=$(fpm_counter counters install_failed)
check "a link-local gateway on an interface fwd does not know" send "add 2001:db8:41:9::/64 via fe80::1 dev 99"
check "... is refused by the FIB and counted" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print([c.get(\"value\", 0) for c in json.load(sys.stdin)[\"fpm\"][\"counters\"] if c[\"name\"]==\"install_failed\"][0])')\" = $((fails0 + 1)) ]"
check "status names the refused route" bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm last refused: *2001:db8:41:9::/64'"

# -- a malformed frame closes the connection; what came before stays
check "a bad frame after a good one: fwd closes the connection" \
	send --expect-close 5 "add 10.41.4.0/24 via 10.41.2.2 proto 188" bad
expect "error counted by kind (nlmsg_len)" "$(fpm_counter errors nlmsg_len)" -eq 1
check "the last error is named in status" bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm last error:.*nlmsg_len'"
expect "the route of the good frame stays (ospf)" "$(origin 10.41.4.0/24)" = ospf
check "and carries traffic" ns_exec h1 ping -c 2 -i 0.2 -W 1 10.41.4.1

# -- fwd's own routes win; zebra's comes back when they go; reload leaves it
check "fwdctl route add over zebra's route (no replace needed)" \
	fwdctl route add 10.41.4.0/24 via 10.41.2.2
expect "fwdctl's route holds the prefix" "$(origin 10.41.4.0/24)" = rpc
expect "zebra's is shadowed" "$(fpm shadowed)" -eq 1
check "fwdctl route del" fwdctl route del 10.41.4.0/24
expect "zebra's route is back" "$(origin 10.41.4.0/24)" = ospf
write_cfg "routes: [ { prefix: 10.41.4.0/24, blackhole: true } ]"
check "config reload with a config route on the prefix" fwdctl config reload
expect "the config route wins" "$(origin 10.41.4.0/24)" = config
write_cfg
check "config reload without it" fwdctl config reload
expect "zebra's route is back after the reload" "$(origin 10.41.4.0/24)" = ospf
expect "the blackhole of zebra's survived both reloads" "$(origin 10.41.5.0/24)" = static

# -- an address that goes takes zebra's routes through it; when it comes
#    back, so do they (the FPM module looks again after every reload)
P1_EXTRA=", 10.41.20.1/24" write_cfg
check "config reload adds 10.41.20.1/24 to p1" fwdctl config reload
check "zebra sends a route via 10.41.20.2" send "add 10.41.21.0/24 via 10.41.20.2 proto 186"
check "it is in" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK route list | awk '\$1==\"10.41.21.0/24\" {print \$NF}')\" = bgp ]"
write_cfg
fails0=$(fpm_counter counters install_failed)
check "config reload removes the address" fwdctl config reload
expect "the route through it went" "$(origin 10.41.21.0/24)" = none
expect "placing it again was refused, counted" "$(fpm_counter counters install_failed)" -gt "$fails0"
P1_EXTRA=", 10.41.20.1/24" write_cfg
check "config reload puts the address back" fwdctl config reload
check "zebra's route is back without zebra sending it" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK route list | awk '\$1==\"10.41.21.0/24\" {print \$NF}')\" = bgp ]"
check "fwdctl addr del 10.41.20.1/24 dev p1" fwdctl addr del 10.41.20.1/24 dev p1
expect "the route through it went again" "$(origin 10.41.21.0/24)" = none
check "fwdctl addr add 10.41.20.1/24 dev p1" fwdctl addr add 10.41.20.1/24 dev p1
check "zebra's route is back again" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK route list | awk '\$1==\"10.41.21.0/24\" {print \$NF}')\" = bgp ]"
send "del 10.41.21.0/24"
fwdctl addr del 10.41.20.1/24 dev p1
write_cfg
fwdctl config reload >/dev/null

# -- reconnection: a partial replay; what is not sent again goes after the grace
send --hold 8 "add 10.41.4.0/24 via 10.41.2.2 proto 188" \
	"add 2001:db8:41:3::/64 via 2001:db8:41:2::2 proto 188" &
replay=$!
check "zebra reconnects" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print(json.load(sys.stdin)[\"fpm\"].get(\"connected\", False))')\" = True ]"
sleep 1
expect "two routes stale during the replay (one refused by the FIB)" "$(fpm stale)" -eq 2
expect "a stale route still forwards meanwhile" "$(origin 10.41.5.0/24)" = static
check "the stale route goes once the stream is quiet (3 s) after the grace (2 s)" \
	wait_for 10 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | grep -c 10.41.5.0/24)\" = 0 ]"
expect "the routes sent again stay" "$(origin 10.41.4.0/24)/$(origin 2001:db8:41:3::/64)" = ospf/ospf
expect "stale_removed counted" "$(fpm_counter counters stale_removed)" -eq 2
wait $replay

# -- a new connection replaces one still open (zebra restarted; the old one
#    may be half-open): fwd closes the old one
send --expect-close 15 "add 10.41.6.0/24 blackhole" &
first=$!
SMOKE_PIDS+=("$first")
wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | grep -c 10.41.6.0/24)\" = 1 ]"
check "a second connection while the first is open is served" \
	send "add 10.41.7.0/24 blackhole"
check "its route is in" wait_for 5 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j route list | grep -c 10.41.7.0/24)\" = 1 ]"
wait "$first"
expect "fwd closed the first connection" $? -eq 0
check "the daemon log says why" grep -q "closed: replaced by a new connection" "$T/daemon.log"
check "status: the last one closed by zebra" bash -c "$FWDCTL_BIN -s $SOCK status | grep -q 'fpm last down:.*zebra closed the connection'"

# -- a reload that changes control.fpm listens anew (here on IPv6's loopback)
ns_exec fw sysctl -qw net.ipv6.conf.lo.disable_ipv6=0
FPM="[::1]:2621"
write_cfg
check "config reload to $FPM" fwdctl config reload
expect "status: listening on $FPM" "$(fpm listen)" = "$FPM"
check "zebra is served on the new address" send "add 10.41.8.0/24 blackhole"
check_fails "and not on the old one" ns_exec fw "$PY" "$SRCDIR/tests/smoke/fpm_send.py" 127.0.0.1:2620 "add 10.41.9.0/24 blackhole"

# -- bulk: a replay of many routes keeps fwdctl prompt
N=${FPM_BULK:-20000}
want=$(($(fpm installed) + N))
bgp() { fwdctl -j route list | json_get "sum(1 for r in d['routes'] if r.get('origin')=='bgp')"; }
bgp0=$(bgp)
# probe_status LIMIT_S COND...: fwdctl status over and over while COND holds
# (LIMIT_S seconds at most); the slowest answer in ms goes to $slow
probe_status() {
	local limit=$1 begin t0 dt
	shift
	begin=$(date +%s%N)
	slow=0
	while "$@"; do
		t0=$(date +%s%N)
		fwdctl status >/dev/null
		dt=$((($(date +%s%N) - t0) / 1000000))
		[ $dt -gt "$slow" ] && slow=$dt
		[ $(($(date +%s%N) - begin)) -gt $((limit * 1000000000)) ] && break
		sleep 0.1
	done
}
start=$(date +%s%N)
send "bulk $N 10.100.0.0 via 10.41.2.2" &
bulk=$!
replaying() { kill -0 $bulk 2>/dev/null || [ "$(fpm installed)" -lt "$want" ]; }
probe_status 120 replaying
wait $bulk
ms=$((($(date +%s%N) - start) / 1000000))
expect "$N routes installed from one replay (${ms} ms)" "$(bgp)" -eq $((bgp0 + N))
expect "fwdctl status answered during the replay (slowest ${slow} ms; 5 s is a lock-out)" "$slow" -lt 5000

# -- $N routes on one next-hop group, then 100 updates of its member in one
#    frame (ids are the connection's: one connection, updates after a pause):
#    placed again in slices, once, and fwdctl stays prompt
via_of() { fwdctl -j route get "$1" | json_get "d['route']['via']" 2>/dev/null; }
last=172.$((16 + ((N - 1) >> 8))).$(((N - 1) & 255)).1 # in the last /24
want=$(($(fpm installed) + N))
# the updates wait for the test's go-ahead: the routes installed and checked
send --hold 1 "nh 900 via 10.41.2.2" "group 901 900" "bulk $N 172.16.0.0 nhid 901" \
	"waitfile $T/installed 30" "nhupdates 900 100 via 10.41.2.2,10.41.2.3" &
upd=$!
SMOKE_PIDS+=("$upd")
check "$N routes on group 901 (next hop 900 via 10.41.2.2) installed" wait_for 8 bash -c "[ \"\$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print(json.load(sys.stdin)[\"fpm\"].get(\"installed\", 0))')\" -ge $want ]"
expect "... via 10.41.2.2" "$(via_of 172.16.0.1)/$(via_of $last)" = 10.41.2.2/10.41.2.2
touch "$T/installed"
updating() { kill -0 $upd 2>/dev/null || [ "$(via_of 172.16.0.1)" != 10.41.2.3 ] || [ "$(via_of $last)" != 10.41.2.3 ]; }
probe_status 30 updating
wait $upd
expect "after the updates, the first and last of them via 10.41.2.3" "$(via_of 172.16.0.1)/$(via_of $last)" = 10.41.2.3/10.41.2.3
expect "fwdctl status answered meanwhile (slowest ${slow} ms; 5 s is a lock-out)" "$slow" -lt 5000
expect "the 100 updates counted" "$(fpm_counter counters nexthop_add)" -ge 102

smoke_done
