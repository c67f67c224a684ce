#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Operating the daemon: systemd readiness notifications, journal-style log
# levels, `stats workers`, the OpenMetrics endpoint (scraped with curl and
# checked by a strict parser, then fed hostile requests), and the control
# socket's permissions (a user outside its group is refused by the kernel, a
# member may read but not change until it is in control.admin_group, and
# its changes and refusals are logged with its uid).
. "$(dirname "$0")/lib.sh"

smoke_init ops
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ip -n "$(ns h1)" addr add 10.1.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.1.0.2/24 dev v2

GROUP=daemon # exists on every Debian system; `nobody` is not a member
METRICS=127.0.0.1:9110
cfg=$(daemon_config <<-EOF
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: xconnect, peer: p1 }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: xconnect, peer: p0 }
EOF
)
sed -i "s/^  socket_group: root\$/  socket_group: $GROUP\n  metrics: \"$METRICS\"/" "$cfg"
must grep -q "metrics: \"$METRICS\"" "$cfg"
check "fwd-daemon --check accepts the config (in its namespace, where d1 and d2 are)" \
	ns_exec fw "$FWD_DAEMON" --check -c "$cfg"
check_fails "fwd-daemon --log-level bogus is refused" "$FWD_DAEMON" --log-level bogus -c "$cfg"

# sd_notify to an abstract socket (they are per network namespace: listen in fw's)
cat >"$T/notify.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + sys.argv[1][1:])
with open(sys.argv[2], "a") as out:
    while True:
        out.write(s.recv(4096).decode().replace("\n", "|") + "\n")
        out.flush()
EOF
NOTIFY=@$SMOKE_ID-notify
bg fw "$PY" "$T/notify.py" "$NOTIFY" "$T/notify.log"
sleep 0.3

# stderr is "the journal": JOURNAL_STREAM names its device and inode
: >"$T/daemon.log"
export NOTIFY_SOCKET=$NOTIFY JOURNAL_STREAM
JOURNAL_STREAM=$(stat -c '%d:%i' "$T/daemon.log")
must daemon_start fw "$cfg"
unset NOTIFY_SOCKET JOURNAL_STREAM

check "READY=1 sent once ports and workers are up" \
	wait_for 10 grep -q "^READY=1|STATUS=2 ports, 1 workers" "$T/notify.log"
check "log lines carry syslog priorities for journald" grep -q "^<5>main: ready" "$T/daemon.log"
check "port link changes are logged at notice" grep -q "^<5>.*port p0: link up" "$T/daemon.log"
check "DPDK's own lines carry priorities too" grep -q "^<[0-7]>.*TELEMETRY" "$T/daemon.log"
check_fails "no line without a priority" grep -v "^<[0-7]>" "$T/daemon.log"

must wait_for 10 ns_exec h1 ping -c 1 -W 1 10.1.0.2
check "ping h1 -> h2" ns_exec h1 ping -c 10 -i 0.1 -W 1 10.1.0.2

# -- stats workers
workers_json() { fwdctl -j stats workers >"$T/workers.json" && cat "$T/workers.json"; }
wget_() { json_get "$1" <"$T/workers.json"; }
must workers_json >/dev/null
expect "stats workers: one worker" "$(wget_ 'len(d["workers"])')" = 1
expect "stats workers: it received the pings" "$(wget_ 'd["workers"][0]["packets"] >= 20')" = True
expect "stats workers: busy % in (0, 100]" \
	"$(wget_ '0 < d["workers"][0]["busy_pct"] <= 100')" = True
expect "stats workers: average burst >= 1" "$(wget_ 'd["workers"][0]["avg_burst"] >= 1')" = True
expect "stats workers: cycles per packet > 0" \
	"$(wget_ 'd["workers"][0]["cycles_per_packet"] > 0')" = True
expect "stats workers: rx queues p0/0 p1/0" "$(wget_ '" ".join(d["workers"][0]["rx_queues"])')" \
	= "p0/0 p1/0"
expect "stats workers: TSC frequency" "$(wget_ 'd["tsc_hz"] > 0')" = True
check "stats workers prints a table" sh -c "$FWDCTL_BIN -s $SOCK stats workers |
	grep -Eq '^ *WORKER +LCORE +BUSY +PACKETS +AVG BURST +CYCLES/PKT +RX QUEUES'"
check "stats clear" fwdctl stats clear
must workers_json >/dev/null
expect "stats workers restarts from zero after clear" "$(wget_ 'd["workers"][0]["packets"] < 20')" \
	= True

# -- metrics
curl_() { ns_exec fw curl -s --max-time 10 "$@"; }
ns_exec h1 ping -c 5 -i 0.1 -W 1 10.1.0.2 >"$T/ping.out" 2>&1
replies=$(awk '/ received/ {print $4}' "$T/ping.out")
expect "ping h1 -> h2 (${replies:-0} of 5 answered)" "${replies:-0}" -ge 1
curl_ -D "$T/metrics.hdr" -o "$T/metrics.txt" "http://$METRICS/metrics"
check "GET /metrics answers 200" grep -q "^HTTP/1.1 200" "$T/metrics.hdr"
check "as OpenMetrics text" grep -qi "^Content-Type: application/openmetrics-text; version=1.0.0" \
	"$T/metrics.hdr"
expect "ending with # EOF" "$(tail -1 "$T/metrics.txt")" = "# EOF"
cat >"$T/parse.py" <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
def get(fam, **labels):
    return [s.value for s in fams[fam].samples if s.labels == labels][0]
for expr in sys.argv[2:]:
    print(eval(expr))
EOF
metric() { "$PY" "$T/parse.py" "$T/metrics.txt" "$1"; }
check "a strict OpenMetrics parser accepts it" metric "len(fams)"
expect "fwd_port_rx_packets_total{port=p0} counts the pings" \
	"$(metric "get('fwd_port_rx_packets', port='p0') >= ${replies:-5}")" = True
expect "fwd_port_tx_bytes_total{port=p1}" "$(metric 'get("fwd_port_tx_bytes", port="p1") > 0')" = True
# (the reasons counted in the header; none found is a failure, not a
# skipped check: set -u and an empty count would make bash drop it)
reasons=$(grep -c '^	X(' "$SRCDIR/daemon/core/drop.h") || reasons=0
expect "drop reasons found in daemon/core/drop.h ($reasons)" "$reasons" -gt 10
expect "fwd_port_drops_total has every reason for every port" \
	"$(metric 'len(fams["fwd_port_drops"].samples)')" = "$((2 * reasons))"
expect "fwd_port_drops_total{port=p0,reason=no_route}" \
	"$(metric 'get("fwd_port_drops", port="p0", reason="no_route")')" = 0
expect "fwd_worker_busy_ratio{worker=0} in (0, 1]" \
	"$(metric '0 < get("fwd_worker_busy_ratio", worker="0") <= 1')" = True
expect "fwd_worker_packets_total{worker=0}" "$(metric 'get("fwd_worker_packets", worker="0") > 0')" \
	= True
expect "fwd_worker_busy_cycles_total{worker=0}" \
	"$(metric 'get("fwd_worker_busy_cycles", worker="0") > 0')" = True
expect "fwd_port_link_up{port=p0} is 1" "$(metric 'get("fwd_port_link_up", port="p0")')" = 1
check "global counters as fwd_counter_total{name=...}" metric '"fwd_counter" in fams'
check "HEAD /metrics answers 200" sh -c "ip netns exec $(ns fw) curl -s -I http://$METRICS/metrics |
	grep -q '^HTTP/1.1 200'"
expect "GET / answers 404" "$(curl_ -o /dev/null -w '%{http_code}' "http://$METRICS/")" = 404
expect "GET /metrics/x answers 404" "$(curl_ -o /dev/null -w '%{http_code}' "http://$METRICS/metrics/x")" = 404
code=$(curl_ -o /dev/null -w '%{http_code}' -X POST -d x=1 "http://$METRICS/metrics")
expect "POST is not served ($code)" "$code" -ge 400
code=$(curl_ -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)" \
	"http://$METRICS/metrics")
expect "a 20 kB header is refused, not buffered ($code)" "$code" != 200
garbage() { printf 'GARBAGE \x01\x02\r\n\r\n' | ns_exec fw timeout 10 "$PY" -c "
import socket, sys
s = socket.create_connection(('${METRICS%:*}', ${METRICS#*:}))
s.sendall(sys.stdin.buffer.read()); print(s.recv(100).decode(errors='replace').split(' ')[1])"; }
expect "a garbage request gets 400" "$(garbage)" = 400
check "the endpoint still answers after all that" curl_ -f -o /dev/null "http://$METRICS/metrics"

# -- the control socket: 0660 root:$GROUP; the kernel refuses everybody else
chmod o+x "$T" # let others reach the socket, so its own mode is what is tested
install -m 0755 "$FWDCTL_BIN" "$T/fwdctl"
expect "socket mode and owner" "$(stat -c '%A %U %G' "$SOCK")" = "srw-rw---- root $GROUP"
# fwdctl as nobody, or (runuser -g) as nobody in $GROUP, i.e. a member
FWDCTL_AS=(env ASAN_OPTIONS=detect_leaks=0 "$T/fwdctl" -s "$SOCK")
runuser -u nobody -- "${FWDCTL_AS[@]}" status >"$T/nobody.out" 2>&1
expect "nobody (not in $GROUP) is refused: exit 3" "$?" -eq 3
check "with a message naming the socket" \
	grep -q "cannot connect to $SOCK: Permission denied" "$T/nobody.out"
check "a member of $GROUP is served" \
	runuser -u nobody -g "$GROUP" -- "${FWDCTL_AS[@]}" status
# reads are the socket group's; changes root's or control.admin_group's
runuser -u nobody -g "$GROUP" -- "${FWDCTL_AS[@]}" port set p0 down >"$T/member.out" 2>&1
expect "a member of $GROUP may not change state: exit 1" "$?" -eq 1
expect "... saying so with the command's name" "$(cat "$T/member.out")" = \
	"fwdctl: port set: permission denied"
check "... and the refusal is logged with its uid" \
	grep -Eq "^<5>run_handler: port_set by uid $(id -u nobody) pid [0-9]+: permission denied" \
	"$T/daemon.log"
runuser -u nobody -g "$GROUP" -- "${FWDCTL_AS[@]}" capture drops -c 1 >"$T/member.out" 2>&1
expect "... nor capture drops: exit 1, permission denied" "$?:$(cat "$T/member.out")" = \
	"1:fwdctl: capture: permission denied"
sed -i "s/^  socket_group: $GROUP\$/&\n  admin_group: $GROUP/" "$cfg"
must grep -q "admin_group: $GROUP" "$cfg"
check "config reload (control.admin_group: $GROUP)" fwdctl config reload
check "now a member of $GROUP may change state" \
	runuser -u nobody -g "$GROUP" -- "${FWDCTL_AS[@]}" port set p0 down
check "the change is logged with the peer's uid and pid" \
	grep -Eq "^<5>run_handler: port_set by uid $(id -u nobody) pid [0-9]+: ok" "$T/daemon.log"
check "an admin change is logged at notice" grep -q "^<5>.*port p0: admin down" "$T/daemon.log"
check "port set p0 up" fwdctl port set p0 up
check "ping works again" wait_for 10 ns_exec h1 ping -c 1 -W 1 10.1.0.2

# -- bash completion asks the running daemon for port names
complete_at() {
	PATH=$(dirname "$FWDCTL_BIN"):$PATH bash -c '
		. /usr/share/bash-completion/bash_completion 2>/dev/null; . "$1"; line=$2
		COMP_LINE=$line COMP_POINT=${#line}; read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_fwdctl; echo "${COMPREPLY[*]}"' _ "$SRCDIR/cli/fwdctl.bash-completion" "$1"
}
expect "completion: port names from the daemon" "$(complete_at 'fwdctl port show ')" = "p0 p1"
expect "completion: ... also with -s SOCKET" \
	"$(FWD_SOCKET=/nonexistent complete_at "fwdctl -s $SOCK capture ")" = "drops p0 p1"
expect "completion: capture drops offers the drop reasons" \
	"$(complete_at 'fwdctl capture drops ttl_')" = "ttl_exceeded"
expect "completion: stats offers commands and ports" "$(complete_at 'fwdctl stats ')" = \
	"clear workers --watch p0 p1"

if daemon_stop; then pass "daemon stopped cleanly"; else fail "daemon stopped cleanly"; fi
check "STOPPING=1 sent on stop" wait_for 5 grep -q "^STOPPING=1" "$T/notify.log"
smoke_done
