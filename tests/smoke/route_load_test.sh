#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A full Internet-sized table (1M IPv4 prefixes) loads through `fwdctl route
# load`, is looked up correctly, lists completely through the paged RPC and
# goes away again. Prints the load time and the memory the daemon reports.
. "$(dirname "$0")/lib.sh"

ROUTES=${ROUTES:-1000000}

smoke_init route_load
ns_add fw
lone_port fw d1
cfg=$(daemon_config <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1", addresses: [10.41.1.1/24] }
	neighbors:
	  - { address: 10.41.1.2, mac: "02:00:00:00:41:02", port: p0 }
	  - { address: 10.41.1.3, mac: "02:00:00:00:41:03", port: p0 }
	EOF
)
must daemon_start fw "$cfg"

"$PY" "$SRCDIR/tests/bench/gen_routes.py" "$ROUTES" 10.41.1.2 10.41.1.3 >"$T/table.txt"
lines=$(wc -l <"$T/table.txt")
if fwdctl route load "$T/table.txt" >"$T/load.out" 2>&1; then
	pass "route load of $lines routes: $(cat "$T/load.out")"
else
	fail "route load of $lines routes"
	sed 's/^/    | /' "$T/load.out"
fi
total=$(fwdctl -j route list | json_get "len(d['routes'])")
expect "route list pages through all routes ($total = $lines loaded + 1 connected)" \
	"$total" -eq $((lines + 1))

# route get agrees with a longest-match model of the file for a sample of addresses
sample_ok() {
	"$PY" - "$T/table.txt" "$FWDCTL_BIN" "$SOCK" <<-'PYEOF'
	import json, random, subprocess, sys
	table, ctl, sock = sys.argv[1:4]
	routes = {}
	for line in open(table):
	    prefix, _, gw = line.split()
	    a, l = prefix.split("/")
	    o = [int(x) for x in a.split(".")]
	    routes[(o[0] << 24 | o[1] << 16 | o[2] << 8 | o[3], int(l))] = (prefix, gw)
	keys = list(routes)
	random.seed(7)
	for addr, length in random.sample(keys, 300):
	    ip = addr | random.getrandbits(32 - length) if length < 32 else addr
	    best = max((l for l in range(33) if (ip & ((0xFFFFFFFF << (32 - l)) & 0xFFFFFFFF), l) in routes), default=None)
	    want = routes[(ip & ((0xFFFFFFFF << (32 - best)) & 0xFFFFFFFF), best)]
	    s = "%d.%d.%d.%d" % (ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255)
	    got = json.loads(subprocess.check_output([ctl, "-s", sock, "-j", "route", "get", s]))["route"]
	    if (got["prefix"], got["via"]) != want:
	        sys.exit("%s: got %s via %s, want %s via %s" % (s, got["prefix"], got["via"], *want))
	PYEOF
}
check "route get matches a longest-prefix model of the table (300 addresses)" sample_ok

# replace the whole table in place (reload of a changed feed), then remove it
sed 's/via 10.41.1.2$/via 10.41.1.X/; s/via 10.41.1.3$/via 10.41.1.2/; s/via 10.41.1.X$/via 10.41.1.3/' \
	"$T/table.txt" >"$T/swapped.txt"
check "the same table with every gateway swapped loads as replacements" \
	bash -c "$FWDCTL_BIN -s $SOCK route load $T/swapped.txt | grep -q '(0 added'"
first=$(head -1 "$T/swapped.txt")
expect "a swapped route points at its new gateway" \
	"$(fwdctl -j route get "$(echo "$first" | cut -d/ -f1)" | json_get "d['route']['via']")" = \
	"$(echo "$first" | awk '{print $3}')"
printf '1.2.3.0/24 via 10.41.1.2\nnot-a-route\n' >"$T/bad.txt"
fwdctl route load "$T/bad.txt" 2>"$T/err"
expect "a bad line stops the load with FILE:LINE" "$(cat "$T/err")" = \
	"fwdctl: route load: $T/bad.txt:2: bad prefix: not-a-route"
check "status reports the route count" \
	bash -c "[ \$($FWDCTL_BIN -s $SOCK -j status | $PY -c 'import json,sys; print(json.load(sys.stdin)[\"routes\"])') -ge $lines ]"

smoke_done
