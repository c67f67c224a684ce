# SPDX-License-Identifier: BSD-3-Clause
# A bond partner for smoke tests and the demo: sourced after lib.sh, never run.
#
# The partner is DPDK's own bonding PMD (an 802.1AX implementation nobody
# here wrote) in dpdk-testpmd, in a namespace of its own: af_packet ports on
# the partner's veth ends (the peers of fwd's member ports) are the slaves
# of `net_bonding0` (mode 4: LACP, mode 1: active-backup), and one more
# af_packet port leads to a host. testpmd forwards (io) between that port
# and the bond, so the partner is a transparent bonded switch for the host:
#
#   host h --- [pt: testpmd  port2 <-io-> bond3 = slave0 + slave1] ==p1,p2== fwd's d1,d2
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib_bond.sh"
#   ns_add h1 pt fw
#   bond_links pt fw 2          # p1-d1, p2-d2 (d1's MAC: BOND_MAC)
#   veth h1 v1 pt p3
#   bond_partner pt 4 p3        # mode 4 over p1 p2, the host on p3
#   bond_keepalive h1 v1 10.31.1.1   # see below
#
# testpmd's forwarding core polls without a pause: the tests give fwd's
# worker dataplane.idle_sleep_us, so the two share the CPUs better.
#
# What the PMD needs (learnt the hard way, see doc/bonds.md "Testing"):
# - It sends its LACPDUs only from inside the application's tx burst on the
#   bond, and testpmd's engines send only what they received: without
#   traffic from the host the partner is silent. bond_keepalive keeps a
#   ping from the host running (50/s, to fwd's address through the bond, a
#   static neighbour entry so it flows before anything resolves).
# - af_packet has no link detection (`set link-down` fails, the link is
#   always up), so a member's cable pull is two steps: the partner's veth
#   end goes down (fwd sees no carrier on its end) and the slave leaves the
#   partner's bond (`remove bonding slave`): bond_member_down/up.
# - Its actor uses the long timeout (no knob in DPDK 22.11): it would keep
#   a member fwd left for 90 s, so the tests only ever take members away on
#   both sides at once (bond_member_down) or silence them (bond_silence).
#
# Where the kernel has Linux bonding (`ip link add type bond` works, or
# FWD_BOND_PARTNER=linux), the partner is a Linux bond instead (802.3ad,
# lacp_rate fast, layer3+4; or active-backup with p1 primary) bridged to the
# host's link: the same functions, on /proc/net/bonding and ip(8), and it
# sees its links itself (miimon). FWD_BOND_PARTNER=dpdk forces testpmd.
#
# Every testpmd is bounded (timeout BOND_PARTNER_SECS) and started with lib.sh's
# `bg`, so the EXIT trap stops it, also when the test fails half-way. Its
# console is a FIFO (commands in) and a log (answers out): bond_cmd.

BOND_PT=             # the partner's namespace (short name)
BOND_FIFO=
BOND_LOG=
BOND_PORT=3          # testpmd's port id of the bond (slaves 0, 1; the host 2)
BOND_MAC=02:00:00:b0:0d:01  # fwd's first member's MAC: the bond's MAC
BOND_PARTNER_SECS=${BOND_PARTNER_SECS:-120}
BOND_KIND=

# bond_kind: sets BOND_KIND to "linux" when this kernel makes bonds, else
# "dpdk" (probed once, in a throw-away namespace; FWD_BOND_PARTNER overrides)
bond_kind() {
	if [ -z "$BOND_KIND" ]; then
		BOND_KIND=${FWD_BOND_PARTNER:-}
		if [ -z "$BOND_KIND" ]; then
			BOND_KIND=dpdk
			local probe="$SMOKE_ID-bprobe"
			if ip netns add "$probe" 2>/dev/null; then
				ip -n "$probe" link add bp0 type bond >/dev/null 2>&1 && BOND_KIND=linux
				ip netns del "$probe"
			fi
		fi
	fi
}

# bond_links PT FW N: N veth pairs pI (partner) - dI (fwd), I = 1..N; d1's
# MAC is BOND_MAC (so hosts can have a static neighbour entry for fwd).
bond_links() {
	local i
	for i in $(seq 1 "$3"); do
		veth "$1" "p$i" "$2" "d$i" || return 1
	done
	ip -n "$(ns "$2")" link set d1 address "$BOND_MAC"
}

# bond_partner PT MODE HOSTIF [XMIT]: testpmd in PT, net_bonding0 in MODE (4 or 1)
# over p1, p2 (slaves 0, 1), the host's link on HOSTIF (port 2), io forwarding
# between port 2 and the bond (port 3); XMIT its transmit hash (default l34).
# Waits for the console. qdisc_bypass=0: the partner's frames go through the
# veths' qdiscs, so bond_silence can drop them with tc.
bond_partner() {
	local pt=$1 mode=$2 hostif=$3 xmit=${4:-l34} i
	BOND_PT=$pt
	bond_kind
	log "bond partner: $BOND_KIND"
	[ "$BOND_KIND" = linux ] && {
		bond_partner_linux "$@"
		return
	}
	BOND_FIFO=$T/testpmd.in
	BOND_LOG=$T/testpmd.log
	command -v dpdk-testpmd >/dev/null || {
		log "dpdk-testpmd not installed (Debian: dpdk; make deps)"
		return 1
	}
	mkfifo "$BOND_FIFO" || return 1
	# the FIFO stays open read-write in testpmd (fd 3), so it never sees EOF
	# between two bond_cmd writes
	bg "$pt" bash -c "exec 3<>'$BOND_FIFO'; exec timeout $BOND_PARTNER_SECS \
		stdbuf -oL -eL dpdk-testpmd -l 0-1 --no-huge -m 256 --no-pci --no-shconf \
		--file-prefix '$SMOKE_ID-pt' --log-level=pmd.net.bonding:notice \
		--vdev net_af_packet0,iface=p1,qdisc_bypass=0 \
		--vdev net_af_packet1,iface=p2,qdisc_bypass=0 \
		--vdev net_af_packet2,iface=$hostif \
		--vdev net_bonding0,mode=$mode,slave=net_af_packet0,slave=net_af_packet1,xmit_policy=$xmit \
		-- -i --total-num-mbufs=4096 --portlist=2,$BOND_PORT --forward-mode=io \
		<&3 >'$BOND_LOG' 2>&1"
	for i in $(seq 1 150); do
		grep -q 'testpmd> ' "$BOND_LOG" 2>/dev/null && break
		sleep 0.1
	done
	bond_cmd start >/dev/null || {
		log "testpmd did not come up:"
		tail -20 "$BOND_LOG" | sed 's/^/    | /'
		return 1
	}
}

# bond_cmd CMD: one testpmd console command; prints its answer (the lines
# between the command and the next prompt, the PMD's own warnings left out).
bond_cmd() {
	local off
	off=$(stat -c %s "$BOND_LOG") || return 1
	printf '%s\n' "$*" >"$BOND_FIFO"
	"$PY" - "$BOND_LOG" "$off" "$*" <<-'EOF'
	import sys, time
	log, off, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	end = time.time() + 5
	while time.time() < end:
	    with open(log, "rb") as f:
	        f.seek(off)
	        text = f.read().decode(errors="replace")
	    i = text.find(cmd)
	    j = text.find("testpmd> ", i + len(cmd)) if i >= 0 else -1
	    if j >= 0:
	        for line in text[i + len(cmd):j].splitlines():
	            if "show_warnings" in line or "must be invoked" in line:
	                continue
	            if line.strip():
	                print(line)
	        sys.exit(0)
	    time.sleep(0.05)
	sys.exit(1)
	EOF
}

# bond_partner_lacp: the partner's `show bonding lacp info` as JSON:
# {"0": {"actor": {"system": MAC, "key": N, "port": N, "state": [NAMES]},
#        "partner": {...}, "selected": bool}, "1": ...} (names as testpmd
# prints them: ACTIVE AGGREGATION SYNCHRONIZATION COLLECTING DISTRIBUTING ...)
bond_partner_lacp() {
	[ "$BOND_KIND" = linux ] && {
		bond_partner_lacp_linux
		return
	}
	bond_cmd "show bonding lacp info $BOND_PORT" | "$PY" -c '
import json, sys
out, slave, side = {}, None, None
for line in sys.stdin:
    k, _, v = (s.strip() for s in line.partition(":"))
    if k == "Slave Port":
        slave = out.setdefault(v, {"actor": {}, "partner": {}})
    elif slave is None:
        continue
    elif k == "selection":
        slave["selected"] = v == "SELECTED"
    elif k.startswith("Actor detail"):
        side = slave["actor"]
    elif k.startswith("Partner detail"):
        side = slave["partner"]
    elif side is not None and k == "system mac address":
        side["system"] = line.split(": ", 1)[1].strip().lower()
    elif side is not None and k in ("port key", "port number"):
        side[k.split()[1].replace("number", "port")] = int(v)
    elif side is not None and k == "port state":
        side["state"] = v.split()
print(json.dumps(out))'
}

# bond_partner_state SLAVE: the partner actor's state bits on slave 0 or 1
# ("ACTIVE AGGREGATION ... DISTRIBUTING"), "none" when the slave is not in its bond
bond_partner_state() {
	bond_partner_lacp | json_get "' '.join(d['$1']['actor']['state']) if '$1' in d else 'none'"
}

# bond_partner_distributing SLAVE: the partner distributes on slave 0 or 1
bond_partner_distributing() {
	bond_partner_state "$1" | grep -qw DISTRIBUTING
}

# bond_partner_active: the partner bond's active slaves ("0 1", "1", ...)
bond_partner_active() {
	[ "$BOND_KIND" = linux ] && {
		bond_partner_lacp_linux | json_get "' '.join(k for k, v in sorted(d.items()) if v['up'])"
		return
	}
	bond_cmd "show bonding config $BOND_PORT" |
		sed -n 's/.*Active Slaves ([0-9]*): \[\(.*\)\].*/\1/p'
}

# bond_member_down I / bond_member_up I: member I's cable pulled / plugged
# in: the partner's veth end pI down (fwd's dI loses its carrier) and slave
# I-1 out of the partner's bond (it cannot see the link itself), or back.
# Both at once (the link change in the background while testpmd takes the
# command): a cable pull is seen by both ends at the same time, and a gap
# between the two would be counted as fwd's failover time.
bond_member_down() {
	ip -n "$(ns "$BOND_PT")" link set "p$1" down &
	[ "$BOND_KIND" = linux ] || bond_cmd "remove bonding slave $(($1 - 1)) $BOND_PORT" >/dev/null
	wait $!
}
bond_member_up() {
	ip -n "$(ns "$BOND_PT")" link set "p$1" up &
	[ "$BOND_KIND" = linux ] || bond_cmd "add bonding slave $(($1 - 1)) $BOND_PORT" >/dev/null
	wait $!
}

# bond_silence I on|off: the partner falls silent on member I (or speaks
# again): everything it sends on pI is dropped (a FIFO qdisc of length 0:
# this kernel has no netem nor matchall; the link stays up, fwd's frames
# still reach it), as a partner whose control plane died.
bond_silence() {
	local dev=p$1
	if [ "$2" = on ]; then
		ns_exec "$BOND_PT" tc qdisc replace dev "$dev" root pfifo limit 0
	else
		ns_exec "$BOND_PT" tc qdisc del dev "$dev" root 2>/dev/null
		return 0
	fi
}

# bond_keepalive HOST IF ADDR [MAC]: HOST pings ADDR (fwd's) through the
# partner, 50 times a second for as long as the partner runs (the partner's
# LACPDUs go out only while traffic flows through it; see above); ADDR's
# MAC (default fwd's, BOND_MAC) as a static neighbour entry.
bond_keepalive() {
	ip -n "$(ns "$1")" neigh replace "$3" lladdr "${4:-$BOND_MAC}" dev "$2" nud permanent ||
		return 1
	bg "$1" timeout "$BOND_PARTNER_SECS" ping -q -i 0.02 "$3"
}

# The Linux bond partner (bond_kind linux): bond0 over p1, p2 in PT, bridged
# with HOSTIF (br0), so it is the same transparent bonded switch.
bond_partner_linux() {
	local n i
	n=$(ns "$1")
	case $2 in
	4) ip -n "$n" link add bond0 type bond mode 802.3ad lacp_rate fast miimon 100 \
		xmit_hash_policy layer3+4 || return 1 ;;
	1) ip -n "$n" link add bond0 type bond mode active-backup miimon 100 || return 1 ;;
	*) return 1 ;;
	esac
	ip -n "$n" link set p1 down && ip -n "$n" link set p1 master bond0 &&
		ip -n "$n" link set p2 down && ip -n "$n" link set p2 master bond0 || return 1
	[ "$2" = 1 ] && ip -n "$n" link set bond0 type bond primary p1
	ip -n "$n" link add br0 type bridge &&
		ip -n "$n" link set bond0 master br0 && ip -n "$n" link set "$3" master br0 || return 1
	for i in p1 p2 bond0 br0; do
		ip -n "$n" link set "$i" up
	done
}

# /proc/net/bonding/bond0 as bond_partner_lacp's JSON: slaves "0" (p1) and
# "1" (p2), the state bits by testpmd's names, and "up" (MII status)
bond_partner_lacp_linux() {
	ns_exec "$BOND_PT" cat /proc/net/bonding/bond0 | "$PY" -c '
import json, sys
NAMES = ["ACTIVE", "TIMEOUT", "AGGREGATION", "SYNCHRONIZATION", "COLLECTING",
         "DISTRIBUTING", "DEFAULTED", "EXPIRED"]
out, slave, side, active_agg = {}, None, None, None
for line in sys.stdin:
    k, _, v = (s.strip() for s in line.partition(":"))
    if k == "Slave Interface":
        slave = out.setdefault(str(int(v[1:]) - 1), {"actor": {}, "partner": {}})
        side = None
    elif slave is None:
        if k == "Aggregator ID" and active_agg is None:
            active_agg = v
    elif k == "MII Status":
        slave["up"] = v == "up"
    elif k == "Aggregator ID":
        slave["selected"] = v == active_agg
    elif k.startswith("details actor"):
        side = slave["actor"]
    elif k.startswith("details partner"):
        side = slave["partner"]
    elif side is not None and k == "system mac address":
        side["system"] = line.split(": ", 1)[1].strip().lower()
    elif side is not None and k in ("port key", "oper key"):
        side["key"] = int(v)
    elif side is not None and k == "port number":
        side["port"] = int(v)
    elif side is not None and k == "port state":
        side["state"] = [NAMES[b] for b in range(8) if int(v) >> b & 1]
for s in out.values():
    for side in ("actor", "partner"):
        s[side].setdefault("state", [])
print(json.dumps(out))'
}

# fwd_bond NAME EXPR: prints EXPR, python over `b` (bond NAME in `fwdctl -j
# bond show NAME`, fwdctl(8)) and `m` (its members by name); a field at its
# default may be left out of the JSON, so read them with .get().
#   fwd_bond bond0 "m['m1'].get('distributing', False)"    -> True
fwd_bond() {
	fwdctl -j bond show "$1" | "$PY" -c "import json, sys
d = json.load(sys.stdin)
b = d['bonds'][0] if 'bonds' in d else d
m = {x['name']: x for x in b.get('members', [])}
print($2)"
}

# fwd_distributing BOND MEMBER: fwd distributes on MEMBER (and says so in
# the actor's LACP state bits too, where the bond runs LACP)
fwd_distributing() {
	[ "$(fwd_bond "$1" "m['$2'].get('distributing', False)")" = True ]
}

# bond_router_setup: the topology bond_test.sh, bond_ab_test.sh and the demo
# share (fwd routes between the partner's host and a host of its own):
#
#   h1 10.31.1.2 --- [pt: the partner] ==p1-d1,p2-d2== [fw: bond0 10.31.1.1 (m1 d1, m2 d2)]
#                                                          u0 d3 10.31.2.1 --- h2 10.31.2.2
bond_router_setup() {
	ns_add h1 pt fw h2 && bond_links pt fw 2 && veth h1 v1 pt p3 && veth h2 v2 fw d3 &&
		ns_host h1 v1 10.31.1.2/24 10.31.1.1 && ns_host h2 v2 10.31.2.2/24 10.31.2.1
}

# bond_router_config BOND_KEYS [MORE]: fwd's config for bond_router_setup,
# bond0 with BOND_KEYS ("lacp: true, lacp_rate: fast"), then the lines MORE;
# the worker sleeps when idle (testpmd's core polls without a pause).
bond_router_config() {
	DATAPLANE_EXTRA="  idle_sleep_us: 100" daemon_config >/dev/null <<-EOF
	ports:
	  - { name: m1, device: "net_af_packet0,iface=d1" }
	  - { name: m2, device: "net_af_packet1,iface=d2" }
	  - { name: u0, device: "net_af_packet2,iface=d3", addresses: [10.31.2.1/24] }
	bonds:
	  - { name: bond0, members: [m1, m2], $1, hash: l34,
	      mode: l3, addresses: [10.31.1.1/24] }
	${2:-}
	EOF
}

# bond_flows_start NAME SECS: 16 UDP flows each way through the bond for SECS
# s, in the background (bond_flows.py): h2 -> h1, which fwd sends on the
# bond ($T/NAME-out.json), and h1 -> h2 ($T/NAME-in.json)
bond_flows_start() {
	local flows=$SRCDIR/tests/smoke/bond_flows.py
	bg h1 timeout $(($2 + 10)) "$PY" "$flows" recv 7102 $(($2 + 7)) "$T/$1-out.json"
	bg h2 timeout $(($2 + 10)) "$PY" "$flows" recv 7103 $(($2 + 7)) "$T/$1-in.json"
	sleep 0.3
	bg h2 timeout $(($2 + 7)) "$PY" "$flows" send 10.31.1.2 7102 16 100 "$2"
	bg h1 timeout $(($2 + 7)) "$PY" "$flows" send 10.31.2.2 7103 16 100 "$2"
}

# bond_flows_check NAME WHAT: waits for bond_flows_start's results; in each
# direction the longest outage of any flow must be at most 1000 ms
bond_flows_check() {
	local dir gap
	wait_for 10 test -s "$T/$1-in.json"
	wait_for 3 test -s "$T/$1-out.json"
	for dir in out in; do
		gap=$(json_get "d['max_gap_ms'] if d['ended'] else 99999" <"$T/$1-$dir.json" 2>/dev/null)
		log "$1, $dir of the bond: $(cat "$T/$1-$dir.json" 2>/dev/null)"
		expect "$2: longest outage of a flow $dir of the bond ${gap:-?} ms <= 1000 ms" \
			"${gap:-99999}" -le 1000
	done
}

# fwd_port_counter PORT FIELD: a counter of PORT in `fwdctl -j stats`
# (tx_packets, rx_packets, ...)
fwd_port_counter() {
	fwdctl -j stats | json_get "next(p.get('$2', 0) for p in d['ports'] if p['name'] == '$1')"
}
