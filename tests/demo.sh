#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make demo`: hugepages, a namespace topology, fwd-daemon on conf/demo.yaml,
# traffic through it shown with fwdctl, then everything torn down again
# (DEMO_KEEP=1 leaves it running; `make demo-stop` tears it down later).
#
#   tests/demo.sh [start|stop]
set -u
cd "$(dirname "$0")/.."
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

topology_up() {
	for n in $NS $NS-h1 $NS-h2; do
		ip netns add "$n" && ip -n "$n" link set lo up
	done
	# the daemon's namespace keeps its kernel out of the way of the veth ends fwd owns
	ip netns exec $NS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	# h1 configures itself from fwd's router advertisements (SLAAC)
	ip netns exec $NS-h1 sysctl -qw net.ipv6.conf.default.accept_ra=2 \
		net.ipv6.conf.default.addr_gen_mode=0
	veth $NS-h1 eth0 $NS dp0
	veth $NS-h2 eth0 $NS dp1
	ip -n $NS-h1 addr add 10.0.1.2/24 dev eth0
	ip -n $NS-h1 route add default via 10.0.1.1
	ip -n $NS-h2 addr add 10.0.2.2/24 dev eth0
	ip -n $NS-h2 addr add 10.0.3.1/24 dev lo
	ip -n $NS-h2 route add default via 10.0.2.1
	ip -n $NS-h2 addr add 2001:db8:2::2/64 dev eth0 nodad
	ip -n $NS-h2 addr add 2001:db8:3::1/64 dev lo nodad
	ip -n $NS-h2 -6 route add default via 2001:db8:2::1
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
	for n in $NS-h1 $NS-h2 $NS; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	hugepages_down
	return 0
}

h1() { ip netns exec $NS-h1 "$@"; }

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
