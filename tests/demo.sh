#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make demo`: hugepages, a namespace topology, fwd-daemon on conf/demo.yaml,
# traffic through it shown with fwdctl, then everything torn down again
# (DEMO_KEEP=1 leaves it running; `make demo-stop` tears it down later).
#
#   tests/demo.sh [start|stop]
set -u
cd "$(dirname "$0")/.." || exit 1
SRC=$PWD
BUILD=${BUILD:-$SRC/build}
FWDCTL="$BUILD/fwdctl"
CONF=$SRC/conf/demo.yaml
STATE=/run/fwd-demo
NS=fwd-demo

say() { printf '\n\033[1m### %s\033[0m\n' "$*"; }
run() {
	printf '$ %s\n' "$*"
	"$@"
}
die() {
	echo "demo: $*" >&2
	exit 1
}

hugepages_up() {
	mkdir -p "$STATE"
	local total
	total=$(cat /proc/sys/vm/nr_hugepages)
	[ -f "$STATE/nr_hugepages" ] || echo "$total" >"$STATE/nr_hugepages"
	if [ "$total" -lt 256 ]; then
		echo 256 >/proc/sys/vm/nr_hugepages
		[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 128 ] || die "could not reserve hugepages"
	fi
	if ! mountpoint -q /dev/hugepages; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages && touch "$STATE/mounted"
	fi
}

hugepages_down() {
	[ -f "$STATE/mounted" ] && umount /dev/hugepages 2>/dev/null
	rm -f /dev/hugepages/fwd-demo* 2>/dev/null
	[ -f "$STATE/nr_hugepages" ] && cat "$STATE/nr_hugepages" >/proc/sys/vm/nr_hugepages
	rm -rf "$STATE"
}

veth() { # NS_A IF_A NS_B IF_B
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3"
	for end in "$1:$2" "$3:$4"; do
		ip netns exec "${end%%:*}" ethtool -K "${end##*:}" tx off tso off gso off gro off >/dev/null 2>&1
		ip -n "${end%%:*}" link set "${end##*:}" up
	done
}

# the kernel's 802.1Q devices, where it has them: h1's eth0 is the trunk
# end (untagged traffic), its VLAN devices moved into h3 and h4
vlan_linux() {
	veth $NS-h1 eth0 $NS dp0
	local v
	for v in 100:h3 200:h4; do
		ip -n $NS-h1 link add link eth0 name "v${v%%:*}" type vlan id "${v%%:*}" &&
			ip -n $NS-h1 link set "v${v%%:*}" netns "$NS-${v##*:}" &&
			ip -n "$NS-${v##*:}" link set "v${v%%:*}" name eth0 up || return 1
	done
}

# elsewhere a private Open vSwitch (userspace datapath, no kernel module) in
# namespace sw: trunk tr0 to p0, h1 on its untagged traffic, h3 and h4 on
# access ports; its processes die with the namespace (stop)
vlan_ovs() {
	command -v ovs-vswitchd >/dev/null || die "no VLAN devices and no Open vSwitch: make deps"
	local d=$STATE/ovs
	mkdir -p "$d"
	export OVS_RUNDIR=$d OVS_LOGDIR=$d OVS_DBDIR=$d OVS_SYSCONFDIR=$d
	ovsdb-tool create "$d/conf.db" /usr/share/openvswitch/vswitch.ovsschema || return 1
	ip netns exec $NS-sw ovsdb-server "$d/conf.db" --remote="punix:$d/db.sock" \
		--pidfile --unixctl="$d/db.ctl" --log-file --detach --no-chdir || return 1
	ip netns exec $NS-sw ovs-vswitchd "unix:$d/db.sock" --pidfile \
		--unixctl="$d/vswitchd.ctl" --log-file --detach --no-chdir || return 1
	veth $NS-sw tr0 $NS dp0
	veth $NS-h1 eth0 $NS-sw h1
	veth $NS-h3 eth0 $NS-sw h3
	veth $NS-h4 eth0 $NS-sw h4
	ovs-vsctl --db="unix:$d/db.sock" --timeout=10 add-br sw -- \
		set bridge sw datapath_type=netdev -- add-port sw tr0 -- \
		add-port sw h1 trunks=0 -- add-port sw h3 tag=100 -- add-port sw h4 tag=200
}

# FWD_VLAN_SWITCH=ovs|linux picks; by default the kernel's VLAN devices if it has them
vlan_switch_up() {
	local kind=${FWD_VLAN_SWITCH:-}
	if [ -z "$kind" ]; then
		kind=ovs
		ip -n $NS-sw link add vp0 type veth peer name vp1 &&
			ip -n $NS-sw link add link vp0 name vp0.5 type vlan id 5 >/dev/null 2>&1 &&
			kind=linux
		ip -n $NS-sw link del vp0 2>/dev/null
	fi
	echo "VLAN switch: $kind"
	"vlan_$kind" >"$STATE/switch.log" 2>&1 || {
		cat "$STATE/switch.log" >&2
		die "could not build the VLAN switch ($kind)"
	}
}

host() { # NS ADDR4 GW4 ADDR6 GW6
	ip -n "$1" addr add "$2" dev eth0
	ip -n "$1" route add default via "$3"
	ip -n "$1" addr add "$4" dev eth0 nodad
	ip -n "$1" -6 route add default via "$5"
}

topology_up() {
	for n in $NS $NS-sw $NS-h1 $NS-h2 $NS-h3 $NS-h4; do
		ip netns add "$n" && ip -n "$n" link set lo up
	done
	# the daemon's namespace keeps its kernel out of the way of the veth ends fwd owns
	ip netns exec $NS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	# h1 configures itself from fwd's router advertisements (SLAAC)
	ip netns exec $NS-h1 sysctl -qw net.ipv6.conf.default.accept_ra=2 \
		net.ipv6.conf.default.addr_gen_mode=0
	vlan_switch_up
	veth $NS-h2 eth0 $NS dp1
	ip -n $NS-h1 addr add 10.0.1.2/24 dev eth0
	ip -n $NS-h1 route add default via 10.0.1.1
	host $NS-h2 10.0.2.2/24 10.0.2.1 2001:db8:2::2/64 2001:db8:2::1
	ip -n $NS-h2 addr add 10.0.3.1/24 dev lo
	ip -n $NS-h2 addr add 2001:db8:3::1/64 dev lo nodad
	host $NS-h3 10.0.100.2/24 10.0.100.1 2001:db8:100::2/64 2001:db8:100::1
	host $NS-h4 10.0.200.2/24 10.0.200.1 2001:db8:200::2/64 2001:db8:200::1
}

daemon_up() {
	ip netns exec $NS "$BUILD/fwd-daemon" -c "$CONF" >"$STATE/daemon.log" 2>&1 &
	echo $! >"$STATE/daemon.pid"
	for _ in $(seq 1 200); do
		"$FWDCTL" status >/dev/null 2>&1 && return 0
		kill -0 "$(cat "$STATE/daemon.pid")" 2>/dev/null || break
		sleep 0.1
	done
	cat "$STATE/daemon.log" >&2
	die "fwd-daemon did not start (log above)"
}

stop() {
	if [ -f "$STATE/daemon.pid" ]; then
		local pid
		pid=$(cat "$STATE/daemon.pid")
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 1 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null
	fi
	for n in $NS-h1 $NS-h2 $NS-h3 $NS-h4 $NS-sw $NS; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	hugepages_down
	return 0
}

h1() { ip netns exec $NS-h1 "$@"; }
h3() { ip netns exec $NS-h3 "$@"; }
h4() { ip netns exec $NS-h4 "$@"; }

# h1's SLAAC address and default route, from fwd's first router advertisements
wait_slaac() {
	for _ in $(seq 1 100); do
		h1 ip -6 route show default | grep -q via &&
			h1 ip -6 addr show dev eth0 scope global | grep -q 2001:db8:1: &&
			! h1 ip -6 addr show dev eth0 | grep -q tentative && return 0
		sleep 0.2
	done
	die "h1 got no IPv6 address from fwd's router advertisements"
}

show() {
	say "fwd-daemon is up: two l3 ports, a static route and a blackhole (conf/demo.yaml)"
	run "$FWDCTL" status
	run "$FWDCTL" port list
	run "$FWDCTL" iface list
	run "$FWDCTL" route list
	say "host h1 (10.0.1.2) pings h2 (10.0.2.2) and the subnet behind it, through fwd"
	run h1 ping -c 3 -i 0.2 10.0.2.2 || die "ping through the router failed"
	run h1 ping -c 3 -i 0.2 10.0.3.1 || die "ping over the static route failed"
	say "traceroute: fwd answers TTL expiry with ICMP time exceeded from 10.0.1.1"
	run h1 traceroute -n -q 1 -w 1 -m 4 10.0.3.1
	say "fwd resolved both hosts with ARP"
	run "$FWDCTL" neigh list
	run "$FWDCTL" route get 10.0.3.1
	say "3 s of TCP through fwd (iperf3), with fwdctl stats in the middle"
	ip netns exec $NS-h2 iperf3 -s -1 -D -p 5201 >/dev/null 2>&1
	sleep 0.3
	h1 timeout 15 iperf3 -c 10.0.3.1 -p 5201 -t 3 >"$STATE/iperf.log" 2>&1 &
	local iperf=$!
	sleep 2.2
	run "$FWDCTL" stats
	wait $iperf
	tail -4 "$STATE/iperf.log" | head -2
	say "IPv6: h1 took 2001:db8:1::/64 and its default route from fwd's router advertisements"
	wait_slaac
	run h1 ip -6 addr show dev eth0 scope global
	run h1 ip -6 route show default
	say "h1 pings h2 and the prefix behind it over IPv6, through fwd; traceroute6 shows fwd"
	run h1 ping -6 -c 3 -i 0.2 2001:db8:2::2 || die "ping6 through the router failed"
	run h1 ping -6 -c 3 -i 0.2 2001:db8:3::1 || die "ping6 over the static route failed"
	run h1 traceroute -6 -n -q 1 -w 1 -m 4 2001:db8:3::1
	run "$FWDCTL" -6 addr list
	run "$FWDCTL" -6 neigh list
	run "$FWDCTL" -6 route list
	say "router on a stick: h3 (VLAN 100) and h4 (VLAN 200) reach fwd tagged over p0's trunk"
	run h3 ping -c 2 -i 0.2 10.0.200.2 || die "ping from VLAN 100 to VLAN 200 failed"
	run h3 ping -c 2 -i 0.2 10.0.1.2 || die "ping from VLAN 100 to p0's untagged h1 failed"
	run h4 ping -c 2 -i 0.2 10.0.2.2 || die "ping from VLAN 200 to p1 failed"
	run h3 ping -6 -c 2 -i 0.2 2001:db8:200::2 || die "ping6 from VLAN 100 to VLAN 200 failed"
	run h4 ping -6 -c 2 -i 0.2 2001:db8:2::2 || die "ping6 from VLAN 200 to p1 failed"
	say "fwd answers TTL expiry on the VLAN the packet came from, tagged"
	run h3 traceroute -n -q 1 -w 1 -m 3 10.0.200.2
	say "loopback lo0: the router's own /32 and /128, up whatever the ports do"
	run h4 ping -c 2 -i 0.2 10.0.255.1 || die "ping to lo0's 10.0.255.1 failed"
	run h4 ping -6 -c 2 -i 0.2 2001:db8:ff::1 || die "ping6 to lo0's 2001:db8:ff::1 failed"
	run "$FWDCTL" neigh list
	run "$FWDCTL" stats p0.100
	say "a blackholed destination is dropped and counted (blackhole); no route gives ICMP unreachable"
	h1 ping -c 2 -i 0.2 -W 1 192.0.2.1 >/dev/null 2>&1
	run h1 ping -c 1 -W 1 198.51.100.1
	sleep 1.1
	run "$FWDCTL" stats p0
}

start() {
	[ "$(id -u)" -eq 0 ] || die "run as root (namespaces, hugepages)"
	[ -x "$BUILD/fwd-daemon" ] || die "build first: make"
	stop # idempotent: clear leftovers of an earlier run
	trap 'stop' EXIT
	trap 'exit 130' INT TERM
	hugepages_up
	topology_up
	daemon_up
	show
	if [ -n "${DEMO_KEEP:-}" ]; then
		trap - EXIT
		say "left running (DEMO_KEEP=1): try '$FWDCTL stats --watch'; stop with 'make demo-stop'"
	else
		say "tearing down (DEMO_KEEP=1 keeps it running)"
	fi
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
*) die "usage: tests/demo.sh [start|stop]" ;;
esac
