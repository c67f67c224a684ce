#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dataplane.idle_sleep_us (doc/architecture.md, "Threads and tables"): an
# idle worker sleeps between polls instead of spinning, counts its pauses
# (fwd_worker_sleeps_total in the metrics), and forwards as soon as
# packets come.
#
#   h1 10.44.0.1 --- p0 [fwd xconnect, idle_sleep_us 200] p1 --- h2 10.44.0.2
# run.sh: alone: it counts an idle worker's polls and loses no ping 2 ms apart;
# another daemon's worker polling the same CPU would change both
. "$(dirname "$0")/lib.sh"

smoke_init idle
ns_add h1 h2 fw
veth h1 v1 fw d1
veth h2 v2 fw d2
ip -n "$(ns h1)" addr add 10.44.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.44.0.2/24 dev v2

# the first lines continue daemon_config's control section
DATAPLANE_EXTRA="  idle_sleep_us: 200" daemon_config >/dev/null <<-EOF
  metrics: 127.0.0.1:9187
ports:
  - { name: p0, device: "net_af_packet0,iface=d1", mode: xconnect, peer: p1 }
  - { name: p1, device: "net_af_packet1,iface=d2", mode: xconnect, peer: p0 }
EOF
must daemon_start fw "$T/fwd.yaml"
check "h1 pings h2 through the sleeping worker" wait_for 10 ns_exec h1 ping -c 1 -W 1 10.44.0.2

# idle: at most one poll per 200 µs pause (a spinning worker makes
# hundreds of thousands of loops a second, even sharing its CPU)
fwdctl stats clear
sleep 1
loops=$(fwdctl -j stats workers | json_get "d['workers'][0]['loops']")
log "loops in an idle second: $loops"
expect "an idle worker polls at most 5,000 times a second (200 µs pauses)" "$loops" -le 5500
metrics() {
	ns_exec fw "$PY" -c 'import urllib.request
print(urllib.request.urlopen("http://127.0.0.1:9187/metrics", timeout=5).read().decode())'
}
sleeps=$(metrics | sed -n 's/^fwd_worker_sleeps_total{worker="0"} //p')
log "fwd_worker_sleeps_total: $sleeps"
expect "and counts its pauses in fwd_worker_sleeps_total" "${sleeps:-0}" -gt 0

# under traffic it keeps polling: 200 pings 2 ms apart all come back
check "200 pings 2 ms apart through it, none lost" \
	ns_exec h1 ping -c 200 -i 0.002 -W 1 -q 10.44.0.2
smoke_done
