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
	for n in $NS $NS-h3 $NS-h4; do
		ip netns add "$n" && ip -n "$n" link set lo up
	done
	veth $NS-h3 eth0 $NS dx0
	veth $NS-h4 eth0 $NS dx1
	ip -n $NS-h3 addr add 10.0.3.2/24 dev eth0
	ip -n $NS-h4 addr add 10.0.3.3/24 dev eth0
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
	for n in $NS-h3 $NS-h4 $NS; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	hugepages_down
	return 0
}

show() {
	say "fwd-daemon is up"
	run "$FWDCTL" status
	run "$FWDCTL" port list
	say "host h3 pings host h4 through the x0<->x1 cross-connect"
	run ip netns exec $NS-h3 ping -c 5 -i 0.2 10.0.3.3 || die "ping through the cross-connect failed"
	say "the daemon counted it"
	sleep 1.1 # one stats sample, so the rates are filled
	run "$FWDCTL" stats
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
