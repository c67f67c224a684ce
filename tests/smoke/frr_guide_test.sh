#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# doc/frr.md as a user copies it: its fwd.yaml, /etc/frr/daemons, frr.conf
# and the neighbour's config are taken from the page (the fenced block after
# each "<!-- frr-guide: NAME -->" marker) and run as they are written, in
# the page's topology: fwd and FRR (zebra with the options of the daemons
# file, bgpd) in one namespace, the LAN host and the BGP neighbour in
# theirs, on veths named as the page's devices. Checked: both sessions
# (IPv4 and IPv6) come up with prefixes, not "(Policy)"; the neighbour's
# prefixes reach fwd's FIB with origin bgp and carry pings from the LAN
# host; the page's verify commands run; and what the page says of a
# restart of fwd (its interfaces go and come back; FRR restarted after it
# brings the routes back).
#
#   h0 10.98.0.2 2001:db8:98::2 --- eth1 p0 [fwd + FRR AS 65000] p1 eth2 --- peer 10.98.1.2
#                                                                          2001:db8:98:1::2 AS 65001
. "$(dirname "$0")/lib.sh"

smoke_init frrguide
if [ ! -x /usr/lib/frr/zebra ] || [ ! -x /usr/lib/frr/bgpd ]; then
	log "SKIP: FRR is not installed (make deps installs it)"
	exit 0
fi
DOC=$SRCDIR/doc/frr.md

# guide_block NAME: the fenced block after the page's marker, verbatim
guide_block() {
	awk -v m="<!-- frr-guide: $1 -->" '
		$0 == m { want = 1; next }
		want && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$DOC"
}
for b in fwd.yaml daemons frr.conf peer.conf verify; do
	guide_block "$b" >"$T/guide.$b"
	check "doc/frr.md has the $b block" test -s "$T/guide.$b"
done

ns_add h0 peer fw
veth h0 v0 fw eth1
veth peer v1 fw eth2
ns_ipv6 h0 peer
# fwd's kernel interfaces (p0, p1) get IPv6 when made; the veth ends fwd
# reads stay without (ns_add turned it off on them)
ns_exec fw sysctl -qw net.ipv6.conf.default.disable_ipv6=0
ns_host h0 v0 10.98.0.2/24 10.98.0.1
ns_host6 h0 v0 2001:db8:98::2/64 2001:db8:98::1
ip -n "$(ns peer)" addr add 10.98.1.2/24 dev v1
ip -n "$(ns peer)" -6 addr add 2001:db8:98:1::2/64 dev v1 nodad
ip -n "$(ns peer)" addr add 10.99.0.1/16 dev lo
ip -n "$(ns peer)" -6 addr add 2001:db8:99::1/48 dev lo
ip -n "$(ns peer)" route add 10.98.0.0/24 via 10.98.1.1
ip -n "$(ns peer)" -6 route add 2001:db8:98::/64 via 2001:db8:98:1::1

# the page's fwd.yaml under the test's own dpdk and control keys
{ sed '/^control:$/d' "$T/guide.fwd.yaml"; } | daemon_config >/dev/null
check "fwd-daemon --check accepts the page's fwd.yaml" \
	ns_exec fw "$FWD_DAEMON" --check -c "$T/fwd.yaml"
must daemon_start fw "$T/fwd.yaml"

# /etc/frr/daemons: bgpd on, zebra's options as written there
(. "$T/guide.daemons" && echo "$zebra_options") >"$T/zebra_options"
expect "daemons: bgpd=yes" "$(. "$T/guide.daemons" && echo "$bgpd")" = yes
check "daemons: zebra loads dplane_fpm_nl" grep -q -- "-M dplane_fpm_nl" "$T/zebra_options"

chmod 711 "$T"
for n in r peer; do mkdir -p "$T/frr-$n" && chmod 777 "$T/frr-$n"; done
cp "$T/guide.frr.conf" "$T/frr-r/frr.conf"
cp "$T/guide.peer.conf" "$T/frr-peer/frr.conf"
frr_start() { # NAME NS DAEMON ARGS...
	local d=$T/frr-$1 ns=$2 prog=$3
	shift 3
	ns_exec "$ns" "/usr/lib/frr/$prog" -d -f "$d/frr.conf" -i "$d/$prog.pid" -z "$d/zserv.api" \
		--vty_socket "$d" -u frr -g frr --log "file:$d/$prog.log" "$@"
}
vtysh_r() { ns_exec fw timeout 10 vtysh --vty_socket "$T/frr-r" -c "$1"; }
origin_of() {
	fwdctl -j route list | json_get "next((r['origin'] for r in d['routes'] if r['prefix']=='$1'), 'absent')"
}
is_bgp() { [ "$(origin_of "$1")" = bgp ]; }
# zebra as the daemons file starts it (-A, -s, -M: word-split as frrinit does)
# shellcheck disable=SC2046
check "zebra starts with the page's zebra_options" frr_start r fw zebra $(cat "$T/zebra_options")
sleep 0.5
check "bgpd starts with the page's frr.conf" frr_start r fw bgpd -p 179
check "the neighbour's bgpd starts with the page's peer config" frr_start peer peer bgpd -Z -p 179

check "the IPv4 route reaches fwd's FIB with origin bgp" \
	wait_for 60 is_bgp 10.99.0.0/16
check "the IPv6 route reaches fwd's FIB with origin bgp" \
	wait_for 30 is_bgp 2001:db8:99::/48
vtysh_r "show bgp summary" >"$T/summary" 2>&1
sed 's/^/    | /' "$T/summary"
check_fails "show bgp summary: no (Policy)" grep -q "(Policy)" "$T/summary"
check "show bgp summary: 10.98.1.2 has a prefix" grep -Eq '^10\.98\.1\.2 .* 1 +1 ' "$T/summary"
check "show bgp summary: 2001:db8:98:1::2 has a prefix" grep -Eq '^2001:db8:98:1::2 .* 1 +1 ' "$T/summary"

# the page's verify commands, as written (vtysh and fwdctl in fwd's namespace)
while read -r cmd; do
	case $cmd in
	vtysh*) # the page's quoting, the test's FRR instance
		eval "set -- ${cmd#vtysh}"
		out=$(ns_exec fw timeout 10 vtysh --vty_socket "$T/frr-r" "$@" 2>&1) ;;
	fwdctl*) out=$(eval "$cmd" 2>&1) ;;
	*) out= ;;
	esac
	expect "verify: $cmd answers" -n "$out"
done <"$T/guide.verify"
fwdctl status >"$T/status"
check "fwdctl status: FPM connected" grep -q "connected from 127.0.0.1" "$T/status"
fwdctl route list >"$T/routes"
sed 's/^/    | /' "$T/routes"
check "route list: the IPv6 route via the neighbour's address on p1" \
	grep -Eq '^2001:db8:99::/48 +[a-z]+ +2001:db8:98:1::2 +p1 +bgp' "$T/routes"

check "h0 pings 10.99.0.1 through fwd by the BGP route" \
	ns_exec h0 ping -c 2 -i 0.3 -W 2 10.99.0.1
check "h0 pings 2001:db8:99::1 through fwd by the BGP route" \
	ns_exec h0 ping -6 -c 2 -i 0.3 -W 2 2001:db8:99::1

# -- fwd restarts: its interfaces go and come back; FRR restarted after it
# (the page's advice) has the routes in fwd's FIB again
frr_stop() {
	for p in bgpd zebra; do
		[ -f "$T/frr-r/$p.pid" ] && kill -TERM "$(cat "$T/frr-r/$p.pid")" 2>/dev/null
	done
	for p in bgpd zebra; do
		for _ in $(seq 1 50); do
			[ -f "$T/frr-r/$p.pid" ] && kill -0 "$(cat "$T/frr-r/$p.pid")" 2>/dev/null || break
			sleep 0.1
		done
	done
}
check "fwd-daemon stops" daemon_stop
check_fails "p1 went with it" ns_exec fw ip link show p1
must daemon_start fw "$T/fwd.yaml"
check "p1 is back" wait_for 5 ns_exec fw ip link show p1
frr_stop
# shellcheck disable=SC2046
check "zebra restarts" frr_start r fw zebra $(cat "$T/zebra_options")
sleep 0.5
check "bgpd restarts" frr_start r fw bgpd -p 179
check "the IPv4 route is back in fwd's FIB" wait_for 60 is_bgp 10.99.0.0/16
check "the IPv6 route is back in fwd's FIB" wait_for 30 is_bgp 2001:db8:99::/48
check "h0 pings 10.99.0.1 again" ns_exec h0 ping -c 2 -i 0.3 -W 2 10.99.0.1

for n in peer r; do
	for p in bgpd zebra; do
		[ -f "$T/frr-$n/$p.pid" ] && kill -TERM "$(cat "$T/frr-$n/$p.pid")" 2>/dev/null
	done
done
sleep 0.5
smoke_done
