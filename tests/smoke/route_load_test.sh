#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A full Internet-sized table (1M IPv4 prefixes) loads through `fwdctl route
# load`, is looked up correctly, lists completely through the paged RPC and
# goes away again. Prints the load time and the memory the daemon reports.
. "$(dirname "$0")/lib.sh"

ROUTES=${ROUTES:-1000000}

smoke_init route_load
ns_add fw
ip -n "$(ns fw)" link add d1 type veth peer name d1p
ip -n "$(ns fw)" link set d1 up
ip -n "$(ns fw)" link set d1p up
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

# every 1000th route resolves to its own gateway
sample_ok() {
	awk 'NR % 1000 == 1 {print $1, $3}' "$T/table.txt" | while read -r prefix gw; do
		addr=${prefix%/*}
		got=$(fwdctl -j route get "$addr" | json_get "d['route']['via']")
		[ "$got" = "$gw" ] || { echo "$prefix: $got != $gw"; exit 1; }
	done
}
check "route get on a sample of prefixes finds their gateway" sample_ok

# replace the whole table in place (reload of a changed feed), then remove it
sed 's/via 10.41.1.2$/via 10.41.1.X/; s/via 10.41.1.3$/via 10.41.1.2/; s/via 10.41.1.X$/via 10.41.1.3/' \
	"$T/table.txt" >"$T/swapped.txt"
check "the same table with every gateway swapped loads as replacements" \
	bash -c "$FWDCTL_BIN -s $SOCK route load $T/swapped.txt | grep -q ' 0 added'"
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
