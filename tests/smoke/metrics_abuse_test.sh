#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The metrics endpoint under a cap (stats/metrics_http.c): a request
# trickled one byte at a time is cut at the deadline; GETs within a second
# share one exposition, and `stats clear` is seen at once; then 1,000
# slowloris connections, reopened as soon as they are closed, against a
# daemon with the common 1,024-descriptor limit: it never holds more than
# its cap, `fwdctl status` and a GET from another client are answered
# throughout, and the descriptors come back afterwards.
. "$(dirname "$0")/lib.sh"

smoke_init metrics_abuse
ns_add fw
lone_port fw d1
METRICS=127.0.0.1:9112
SLOW_N=${SLOW_N:-1000} # slow clients, for SLOW_S seconds, probed after SLOW_WAIT
SLOW_S=${SLOW_S:-12} SLOW_WAIT=${SLOW_WAIT:-3}
cfg=$(daemon_config <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.52.1.1/24] }
	EOF
)
sed -i "s/^  socket_group: root\$/&\n  metrics: \"$METRICS\"/" "$cfg"
must grep -q "metrics: \"$METRICS\"" "$cfg"
must daemon_start fw "$cfg"
# 1,024 descriptors (soft and hard: DPDK raises the soft limit to the hard
# one at start); systemd's unit gives 65,536, an attacker just needs more
FD_LIMIT=${FD_LIMIT:-1024}
must prlimit --pid "$DAEMON_PID" --nofile="$FD_LIMIT:$FD_LIMIT"
log "daemon's $(grep "open files" "/proc/$DAEMON_PID/limits" | tr -s ' ')"

get() { ns_exec fw curl -s --max-time 5 -o "$T/get.txt" -w '%{http_code}' "http://$METRICS/metrics"; }
fds() { ls "/proc/$DAEMON_PID/fd" | wc -l; }
counter() {
	fwdctl -j stats | json_get "[c['value'] for c in d['global'] if c['name'] == '$1'][0]"
}
expect "GET /metrics answers 200" "$(get)" = 200
expect "... ending with # EOF" "$(tail -1 "$T/get.txt")" = "# EOF"

# a request that never ends, one byte every 0.5 s: cut at the deadline (5 s)
ns_exec fw timeout 20 "$PY" - "${METRICS%:*}" "${METRICS#*:}" >"$T/trickle.out" 2>&1 <<-'EOF' &
	import socket, sys, time
	s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
	s.settimeout(0.5)
	start = time.monotonic()
	s.sendall(b"GET /metrics HTTP/1.1\r\nX-Slow: ")
	while True:
	    try:
	        if s.recv(100) == b"":
	            break
	    except socket.timeout:
	        pass
	    except OSError:
	        break
	    try:
	        s.sendall(b"a")
	    except OSError:
	        break
	print(round(time.monotonic() - start, 1))
	EOF
TRICKLE=$!

# 20 GETs from one client as fast as it can: the exposition is built once
# a second at most (no bound on how long they take: only the count matters)
builds0=$(counter metrics_builds)
expect "metrics_builds is a global counter ($builds0)" "${builds0:-none}" -ge 1
secs=$(ns_exec fw "$PY" -c "import time, urllib.request
t = time.monotonic()
for i in range(20):
    urllib.request.urlopen('http://$METRICS/metrics', timeout=5).read()
print(int(time.monotonic() - t) + 1)")
builds=$(($(counter metrics_builds) - builds0))
expect "20 GETs in ${secs:-?} s built the exposition $builds times (at most once a second)" \
	"$builds" -le $((${secs:-0} + 1))
get >/dev/null && fwdctl stats clear && get >/dev/null
expect "stats clear: the next GET builds it again" "$(counter metrics_builds)" -eq 1

wait "$TRICKLE"
secs=$(cat "$T/trickle.out")
expect "a request trickled a byte every 0.5 s is cut after its deadline (${secs:-never} s)" \
	"$("$PY" -c "print(int(4 <= float('${secs:-99}') <= 15))")" -eq 1

# -- 1,000 slow connections, each taken again when closed
FD_BASE=$(fds)
ns_exec fw "$PY" "$SRCDIR/tests/smoke/metrics_slow.py" "${METRICS%:*}" "${METRICS#*:}" "$SLOW_N" "$SLOW_S" 2 \
	>"$T/slow.json" 2>"$T/slow.err" &
SLOW=$!
SMOKE_PIDS+=($SLOW)
sleep "$SLOW_WAIT"
ok_status=0 ok_get=0 fd_peak=0
for i in $(seq 1 5); do
	t0=$(date +%s%N)
	timeout 10 "$FWDCTL_BIN" -s "$SOCK" status >/dev/null 2>&1 && ok_status=$((ok_status + 1))
	t1=$(date +%s%N)
	code=$(get)
	log "probe $i: status $(((t1 - t0) / 1000000)) ms, GET $((($(date +%s%N) - t1) / 1000000)) ms"
	if [ "$code" = 200 ] && [ "$(tail -1 "$T/get.txt")" = "# EOF" ]; then
		ok_get=$((ok_get + 1))
	else
		log "GET $i: HTTP code $code"
	fi
	n=$(fds)
	[ "$n" -gt "$fd_peak" ] && fd_peak=$n
	sleep 0.5
done
wait "$SLOW"
log "slowloris: $(cat "$T/slow.json" 2>/dev/null) $(tail -3 "$T/slow.err")"
expect "fwdctl status answered while $SLOW_N slow clients hammer ($ok_status of 5)" "$ok_status" -eq 5
expect "a GET from another client answered meanwhile ($ok_get of 5)" "$ok_get" -eq 5
# 64 places, and the descriptors of one accept batch (16) that libevent
# closes at the end of the loop iteration that freed them
expect "the daemon held at most its 64 places ($FD_BASE fds -> peak $fd_peak)" \
	"$fd_peak" -le $((FD_BASE + 64 + 16 + 4))
slow() { json_get "d['$1']" <"$T/slow.json"; }
expect "the slow clients were closed by the daemon ($(slow closed_by_server) times)" \
	"$(slow closed_by_server)" -gt 100
expect "... making room: metrics_conns_evicted > 0" "$(counter metrics_conns_evicted)" -gt 0
check "descriptors back to the baseline" wait_for 10 test "$(fds)" -le "$FD_BASE"
expect "GET /metrics still answers" "$(get)" = 200
check "fwdctl status afterwards" fwdctl status
smoke_done
