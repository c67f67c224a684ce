# SPDX-License-Identifier: BSD-3-Clause
# FRR instances for smoke tests: sourced after lib.sh, never run. Each
# instance NAME has its own directory $T/frr-NAME (config, pid files, vty
# and zserv sockets, logs), so several run side by side in one test and
# nothing of a system-wide FRR is touched.

# frr_skip_unless_installed: exit 0 (skipped) without zebra and bgpd
frr_skip_unless_installed() {
	if [ ! -x /usr/lib/frr/zebra ] || [ ! -x /usr/lib/frr/bgpd ]; then
		log "SKIP: FRR is not installed (make deps installs it)"
		exit 0
	fi
	chmod 711 "$T" # the frr user reaches its directories
}
# frr_dir NAME: a config of its own for one FRR instance (stdin)
frr_dir() {
	mkdir -p "$T/frr-$1" && chmod 777 "$T/frr-$1" && cat >"$T/frr-$1/frr.conf"
}
# frr_start NAME NS DAEMON ARGS...: one FRR daemon with NAME's pathspace
frr_start() {
	local d=$T/frr-$1 ns=$2 prog=$3
	shift 3
	ns_exec "$ns" "/usr/lib/frr/$prog" -d -f "$d/frr.conf" -i "$d/$prog.pid" -z "$d/zserv.api" \
		--vty_socket "$d" -u frr -g frr --log "file:$d/$prog.log" "$@"
}
frr_stop() { # NAME DAEMON...
	local n=$1 p
	shift
	for p in "$@"; do
		[ -f "$T/frr-$n/$p.pid" ] && kill -TERM "$(cat "$T/frr-$n/$p.pid")" 2>/dev/null
	done
	for p in "$@"; do
		for _ in $(seq 1 50); do
			[ -f "$T/frr-$n/$p.pid" ] && kill -0 "$(cat "$T/frr-$n/$p.pid")" 2>/dev/null || break
			sleep 0.1
		done
	done
}
vtysh_in() { # NAME NS COMMANDS...: vtysh -c for each
	local n=$1 ns=$2 a=()
	shift 2
	for c in "$@"; do a+=(-c "$c"); done
	ns_exec "$ns" timeout 10 vtysh --vty_socket "$T/frr-$n" "${a[@]}"
}
