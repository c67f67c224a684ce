# SPDX-License-Identifier: BSD-3-Clause
# Shared helpers for smoke tests: sourced, never run.
#
# Each test builds its own topology of network namespaces (named with a
# per-run prefix so tests and the demo never collide), starts fwd-daemon in
# a namespace of its own on af_packet/af_xdp ports over veth ends, and
# always cleans up through the EXIT trap, also when an assertion fails or
# the script is killed.
#
# Two make check runs may go side by side (two clones on one machine), so
# whatever a test names outside its own namespaces carries SMOKE_ID or lives
# in $T: namespaces (ns), the DPDK file prefix (daemon_config), sockets,
# pid files and run directories of helpers (FRR's -i/-z/--vty_socket, an
# OVS rundir); TCP ports are bound only inside the test's namespaces; no
# hugepages (dpdk.hugepages false: --no-huge --no-shconf). tests/run.sh
# sweeps only namespaces whose test process is gone and daemons of its own
# build.
#
#   . "$(dirname "$0")/lib.sh"
#   smoke_init xconnect
#   ns_add h1 h2 fw
#   veth h1 v1 fw d1
#   ...
#   check "ping h1 -> h2" ns_exec h1 ping -c 3 -W 1 10.1.0.2
#   smoke_done

set -u

SRCDIR=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$SRCDIR/build/san}
FWD_DAEMON=${FWD_DAEMON:-$BUILD/fwd-daemon}
FWDCTL_BIN=${FWDCTL_BIN:-$BUILD/fwdctl}
PY=/usr/bin/python3

SMOKE_PASS=0
SMOKE_FAIL=0
SMOKE_NS=()
SMOKE_PIDS=()
DAEMON_PID=
DAEMON_NS=
DAEMON_EXIT_EXPECTED=0

log() { printf '  %s\n' "$*"; }

smoke_init() {
	SMOKE_NAME=$1
	SMOKE_ID="fwdt${$}"
	T=$(mktemp -d "/tmp/fwd-smoke-$SMOKE_NAME.XXXXXX")
	SOCK=$T/fwd.sock
	export FWD_SOCKET=$SOCK
	trap smoke_cleanup EXIT
	trap 'exit 130' INT TERM
	echo "== $SMOKE_NAME"
}

# ns NAME: the real namespace name for a short test name.
ns() { echo "$SMOKE_ID-$1"; }

ns_add() {
	local n
	for n in "$@"; do
		ip netns add "$(ns "$n")" || return 1
		SMOKE_NS+=("$(ns "$n")")
		ip -n "$(ns "$n")" link set lo up
		# no IPv6 chatter (router solicitations, ND) to count as drops
		ip netns exec "$(ns "$n")" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
	done
}

# ns_ipv6 NS...: IPv6 back on in host namespaces (ns_add turns it off), on
# every interface there and those made later. Hosts still never accept
# router advertisements unless a test says so (accept_ra 0): the router's
# namespace, where fwd owns the veth ends, keeps IPv6 off.
ns_ipv6() {
	local n
	for n in "$@"; do
		ns_exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 \
			net.ipv6.conf.default.disable_ipv6=0 net.ipv6.conf.all.accept_ra=0 \
			net.ipv6.conf.default.accept_ra=0 || return 1
	done
}

# ns_host6 NS IF ADDR/LEN GATEWAY: a host's IPv6 address on IF (no DAD wait)
# and its default route
ns_host6() {
	ip -n "$(ns "$1")" -6 addr add "$3" dev "$2" nodad &&
		ip -n "$(ns "$1")" -6 route add default via "$4" dev "$2"
}

# eui64_ll MAC: the link-local address Linux (and fwd) derives from MAC, as
# inet_ntop prints it (fe80::/64, modified EUI-64)
eui64_ll() {
	"$PY" -c 'import ipaddress, sys
m = bytes.fromhex(sys.argv[1].replace(":", ""))
print(ipaddress.IPv6Address(b"\xfe\x80" + bytes(6) + bytes([m[0] ^ 2, m[1], m[2], 0xff, 0xfe]) + m[3:]))' "$1"
}

ns_exec() {
	local n=$1
	shift
	ip netns exec "$(ns "$n")" "$@"
}

# veth NS1 IF1 NS2 IF2: a veth pair, both ends up, offloads off (TCP through
# a userspace forwarder needs real checksums and no GSO/GRO super-frames).
veth() {
	ip link add "$2" netns "$(ns "$1")" type veth peer name "$4" netns "$(ns "$3")" || return 1
	ns_exec "$1" ethtool -K "$2" tx off tso off gso off gro off rx off >/dev/null 2>&1
	ns_exec "$3" ethtool -K "$4" tx off tso off gso off gro off rx off >/dev/null 2>&1
	ip -n "$(ns "$1")" link set "$2" up
	ip -n "$(ns "$3")" link set "$4" up
}

# ns_host NS IF ADDR/LEN GATEWAY: a host's address on IF and its default route
ns_host() {
	ip -n "$(ns "$1")" addr add "$3" dev "$2" &&
		ip -n "$(ns "$1")" route add default via "$4"
}

# lone_port NS IF: a veth end for the daemon with nothing behind it (control
# plane tests that need a port but no traffic).
lone_port() {
	ip -n "$(ns "$1")" link add "$2" type veth peer name "$2p" || return 1
	ip -n "$(ns "$1")" link set "$2" up
	ip -n "$(ns "$1")" link set "$2p" up
}

# bg NS CMD...: run a helper process in the background, killed at cleanup.
bg() {
	local n=$1
	shift
	ns_exec "$n" "$@" >"$T/bg.$$.${#SMOKE_PIDS[@]}.log" 2>&1 &
	SMOKE_PIDS+=($!)
}

fwdctl() { "$FWDCTL_BIN" -s "$SOCK" "$@"; }

# jq-like: json_get EXPR < json   (EXPR is python over the document `d`)
json_get() { "$PY" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# iperf_tcp LABEL ADDR: 2 s of iperf3 TCP from h1 to a one-shot server in h2
# at ADDR; passes as "LABEL: N Gbit/s", or fails showing iperf3's last lines.
iperf_tcp() {
	local gbps
	ns_exec h2 iperf3 -s -1 -D -p 5201 >/dev/null
	sleep 0.3
	if ns_exec h1 timeout 20 iperf3 -c "$2" -p 5201 -t 2 -J >"$T/iperf.json" 2>&1; then
		gbps=$(json_get "round(d['end']['sum_received']['bits_per_second']/1e9, 2)" <"$T/iperf.json")
		pass "$1: $gbps Gbit/s"
	else
		fail "$1"
		tail -5 "$T/iperf.json" | sed 's/^/    | /'
	fi
}

# daemon_config <<EOF ... : writes $T/fwd.yaml with the dpdk/dataplane/control
# sections every test shares (extra dataplane keys: DATAPLANE_EXTRA="  key: value"),
# then the rest from stdin; prints the file name.
daemon_config() {
	local file=$T/fwd.yaml
	cat >"$file" <<EOF
dpdk:
  lcores: "0-1"
  hugepages: false
  memory_mb: ${SMOKE_MEMORY_MB:-512}
  file_prefix: $SMOKE_ID
dataplane:
  mbufs: ${SMOKE_MBUFS:-8191}
${DATAPLANE_EXTRA:-}
control:
  socket: $SOCK
  socket_group: root
EOF
	cat >>"$file"
	echo "$file"
}

# daemon_start NS CONFIG: start fwd-daemon in namespace NS, wait for its socket.
daemon_start() {
	DAEMON_NS=$1
	local cfg=$2 i
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}:log_path=$T/asan \
		LSAN_OPTIONS=suppressions=$SRCDIR/tests/lsan.supp:print_suppressions=0 \
		UBSAN_OPTIONS=print_stacktrace=1:log_path=$T/ubsan \
		ip netns exec "$(ns "$DAEMON_NS")" "$FWD_DAEMON" -c "$cfg" --log-level info \
		>"$T/daemon.log" 2>&1 &
	DAEMON_PID=$!
	for i in $(seq 1 300); do
		if ! kill -0 "$DAEMON_PID" 2>/dev/null; then
			log "daemon exited during start-up:"
			sed 's/^/    | /' "$T/daemon.log"
			DAEMON_PID=
			return 1
		fi
		[ -S "$SOCK" ] && fwdctl status >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	log "daemon did not answer on $SOCK within 30 s"
	return 1
}

# daemon_stop: SIGTERM, wait, and fail the test on a bad exit or sanitizer report.
daemon_stop() {
	[ -n "$DAEMON_PID" ] || return 0
	local rc=0 i
	kill -TERM "$DAEMON_PID" 2>/dev/null
	for i in $(seq 1 150); do
		kill -0 "$DAEMON_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$DAEMON_PID" 2>/dev/null; then
		log "daemon did not stop within 15 s of SIGTERM: killing it"
		kill -KILL "$DAEMON_PID" 2>/dev/null
		rc=1
	fi
	wait "$DAEMON_PID" 2>/dev/null
	local status=$?
	DAEMON_PID=
	[ "$rc" -eq 0 ] && [ "$status" -ne 0 ] && {
		log "daemon exited with status $status"
		rc=1
	}
	if ls "$T"/asan.* "$T"/ubsan.* >/dev/null 2>&1; then
		log "sanitizer report from the daemon:"
		cat "$T"/asan.* "$T"/ubsan.* 2>/dev/null | head -60 | sed 's/^/    | /'
		rm -f "$T"/asan.* "$T"/ubsan.*
		rc=1
	fi
	return $rc
}

smoke_cleanup() {
	local rc=$? p n
	trap - EXIT INT TERM
	if [ -n "$DAEMON_PID" ]; then
		daemon_stop || SMOKE_FAIL=$((SMOKE_FAIL + 1))
	fi
	for p in "${SMOKE_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${SMOKE_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	for n in "${SMOKE_NS[@]}"; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	if [ "$SMOKE_FAIL" -ne 0 ] && [ -f "$T/daemon.log" ]; then
		echo "  --- daemon log (last 40 lines)"
		tail -40 "$T/daemon.log" | sed 's/^/    | /'
	fi
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$T"
	echo "$SMOKE_NAME: $SMOKE_PASS passed, $SMOKE_FAIL failed"
	[ "$SMOKE_FAIL" -eq 0 ] && [ "$rc" -eq 0 ] && exit 0
	exit 1
}

pass() {
	SMOKE_PASS=$((SMOKE_PASS + 1))
	echo "  ok   - $*"
}

fail() {
	SMOKE_FAIL=$((SMOKE_FAIL + 1))
	echo "  FAIL - $*"
}

# check DESC CMD...: the command must succeed.
check() {
	local desc=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then
		pass "$desc"
	else
		fail "$desc"
		sed 's/^/    | /' "$T/check.out" | tail -15
	fi
}

# check_fails DESC CMD...: the command must fail.
check_fails() {
	local desc=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then
		fail "$desc (command succeeded)"
		sed 's/^/    | /' "$T/check.out" | tail -15
	else
		pass "$desc"
	fi
}

# expect DESC A OP B: numeric or string comparison through test(1).
expect() {
	local desc=$1
	shift
	if [ "$@" ]; then
		pass "$desc"
	else
		fail "$desc ($*)"
	fi
}

# must CMD...: a set-up step; abort the test when it fails.
must() {
	if ! "$@"; then
		fail "set-up step failed: $*"
		exit 1
	fi
}

# wait_for SECONDS CMD...: poll until the command succeeds.
wait_for() {
	local secs=$1 i
	shift
	for i in $(seq 1 $((secs * 10))); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

smoke_done() {
	if daemon_stop; then
		pass "daemon stopped cleanly (exit 0, no sanitizer report)"
	else
		fail "daemon stopped cleanly (exit 0, no sanitizer report)"
	fi
	exit 0
}
