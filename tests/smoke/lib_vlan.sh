# SPDX-License-Identifier: BSD-3-Clause
# A VLAN switch for smoke tests: sourced after lib.sh, never run.
#
# One 802.1Q trunk (a veth end in the router's namespace, every VLAN tagged,
# untagged traffic native) and access links to hosts, one VLAN each:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib_vlan.sh"
#   ns_add h1 h2 fw
#   vlan_switch fw d1          # the trunk: d1 in fw (fwd's port)
#   vlan_access h1 v1 100      # h1's v1 carries VLAN 100 untagged
#   vlan_access h2 v2 200
#
# Two ways to build it, chosen once per run (vlan_kind, or FWD_VLAN_SWITCH=
# ovs|linux to force one):
#
# - linux: where the kernel has 802.1Q devices, the host's interface IS a
#   VLAN device on the switch's end of the trunk, moved into the host's
#   namespace (no bridge needed: one host per VLAN).
# - ovs: where it has none (`ip link add ... type vlan`: "Unknown device
#   type"), an Open vSwitch bridge with the userspace datapath
#   (datapath_type=netdev: frames through AF_PACKET sockets on the veths,
#   no kernel module) in a namespace of its own, the trunk and access links
#   as its ports (`tag=VID`). ovsdb-server and ovs-vswitchd run privately:
#   their database, sockets, pid and log files in the test's $T/ovs, so
#   nothing of a system-wide Open vSwitch is touched and two runs can go
#   side by side. They are started with lib.sh's `bg`, so the EXIT trap
#   stops them (and then the namespace's processes are killed), also when
#   the test fails half-way.
#
# Every ovs-vsctl call is bounded (--timeout), so a stuck switch fails the
# set-up step instead of hanging the test.

VLAN_SW=sw            # the switch's namespace (ovs), short name for ns()
VLAN_TRUNK_END=       # the switch's end of the trunk
VLAN_KIND=
VLAN_OVS_DIR=
VLAN_OVS_TIMEOUT=${VLAN_OVS_TIMEOUT:-10}

# vlan_kind: "linux" when this kernel creates 802.1Q devices, else "ovs"
# (probed once, in a throw-away namespace; FWD_VLAN_SWITCH overrides)
vlan_kind() {
	if [ -z "$VLAN_KIND" ]; then
		VLAN_KIND=${FWD_VLAN_SWITCH:-}
		if [ -z "$VLAN_KIND" ]; then
			VLAN_KIND=ovs
			local probe="$SMOKE_ID-vprobe"
			if ip netns add "$probe" 2>/dev/null; then
				ip -n "$probe" link add vp0 type veth peer name vp1 2>/dev/null &&
					ip -n "$probe" link add link vp0 name vp0.5 type vlan id 5 \
						>/dev/null 2>&1 && VLAN_KIND=linux
				ip netns del "$probe"
			fi
		fi
	fi
	echo "$VLAN_KIND"
}

vsctl() {
	ovs-vsctl --db="unix:$VLAN_OVS_DIR/db.sock" --timeout="$VLAN_OVS_TIMEOUT" "$@"
}

# vlan_ovs_start: a private ovsdb-server and ovs-vswitchd in the switch's
# namespace, and the bridge br0 on the userspace datapath
vlan_ovs_start() {
	local d=$T/ovs
	VLAN_OVS_DIR=$d
	command -v ovs-vswitchd >/dev/null || {
		log "ovs-vswitchd not installed (Debian: openvswitch-switch; make deps)"
		return 1
	}
	mkdir -p "$d" || return 1
	# the daemons' default run, log and database directories: all under $T
	export OVS_RUNDIR=$d OVS_LOGDIR=$d OVS_DBDIR=$d OVS_SYSCONFDIR=$d
	ovsdb-tool create "$d/conf.db" /usr/share/openvswitch/vswitch.ovsschema || return 1
	bg "$VLAN_SW" ovsdb-server "$d/conf.db" --remote="punix:$d/db.sock" \
		--pidfile="$d/ovsdb-server.pid" --unixctl="$d/ovsdb-server.ctl" \
		--log-file="$d/ovsdb-server.log" --no-chdir
	wait_for 5 test -S "$d/db.sock" || {
		log "ovsdb-server did not open $d/db.sock within 5 s"
		return 1
	}
	vsctl --no-wait init || return 1
	bg "$VLAN_SW" ovs-vswitchd "unix:$d/db.sock" --pidfile="$d/ovs-vswitchd.pid" \
		--unixctl="$d/ovs-vswitchd.ctl" --log-file="$d/ovs-vswitchd.log" --no-chdir
	# without --no-wait: returns once ovs-vswitchd has the bridge up
	vsctl add-br br0 -- set bridge br0 datapath_type=netdev \
		other_config:mac-aging-time=60 || {
		log "ovs-vswitchd did not bring up br0 within $VLAN_OVS_TIMEOUT s:"
		tail -5 "$d/ovs-vswitchd.log" 2>/dev/null | sed 's/^/    | /'
		return 1
	}
	ip -n "$(ns "$VLAN_SW")" link set br0 up 2>/dev/null
	return 0
}

# vlan_switch NS IF: the trunk, IF in namespace NS (the router's port); the
# switch's namespace is created here
vlan_switch() {
	local n=$1 dev=$2
	VLAN_TRUNK_END=tr-$dev
	ns_add "$VLAN_SW" || return 1
	veth "$n" "$dev" "$VLAN_SW" "$VLAN_TRUNK_END" || return 1
	if [ "$(vlan_kind)" = ovs ]; then
		vlan_ovs_start || return 1
		# no tag, no trunks: a trunk of every VLAN, untagged frames native
		vsctl add-port br0 "$VLAN_TRUNK_END" || return 1
	fi
	return 0
}

# vlan_access NS IF VID: IF in host namespace NS carries VLAN VID untagged
vlan_access() {
	local n=$1 dev=$2 vid=$3
	if [ "$(vlan_kind)" = linux ]; then
		ip -n "$(ns "$VLAN_SW")" link add link "$VLAN_TRUNK_END" name "$dev" \
			type vlan id "$vid" || return 1
		ip -n "$(ns "$VLAN_SW")" link set "$dev" netns "$(ns "$n")" || return 1
		# a device moved in keeps the switch namespace's IPv6 setting: take the host's
		ns_exec "$n" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=$(ns_exec "$n" \
			sysctl -n net.ipv6.conf.default.disable_ipv6)"
		ip -n "$(ns "$n")" link set "$dev" up
		return
	fi
	veth "$n" "$dev" "$VLAN_SW" "a$vid-$dev" || return 1
	vsctl add-port br0 "a$vid-$dev" tag="$vid"
}

# vlan_switch_log: the switch's last log lines (to show after a failure)
vlan_switch_log() {
	[ -n "$VLAN_OVS_DIR" ] && tail -"${1:-20}" "$VLAN_OVS_DIR/ovs-vswitchd.log" 2>/dev/null |
		sed 's/^/    | /'
	return 0
}
