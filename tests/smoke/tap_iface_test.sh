#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Kernel interfaces of VLAN interfaces and loopbacks (interfaces[].tap,
# cp/tap_if.c): named like the interface, the VLAN's with its port's MAC
# and its own MTU, up with the interface's admin state and with carrier
# while its port is up; the loopback's always up, with its /32 and /128;
# `fwdctl iface del` takes the kernel interface along; a reload that
# drops and restores `tap` makes a new one (a new ifindex, which FPM maps:
# unit/fpm_test test_vlan_loopback_oif). No traffic: the VLAN datapath
# has tests of its own (vlan_test, frr_vlan_test, conformance/test_vlan).
. "$(dirname "$0")/lib.sh"

smoke_init tap_iface
ns_add h1 fw
veth h1 v1 fw d1

write_cfg() { # VLAN_TAP
	daemon_config >/dev/null <<-EOF
	ports:
	  - { name: p0, device: "net_af_packet0,iface=d1" }
	interfaces:
	  - { name: p0.100, port: p0, vlan: 100, mtu: 1400, tap: $1 }
	  - { name: p0.200, port: p0, vlan: 200 }
	  - { name: lo0, loopback: true, addresses: [192.0.2.1/32, "2001:db8:ff::1/128"], tap: true }
	EOF
}
klink() { ip -n "$(ns fw)" -o link show dev "$1" 2>/dev/null; }
kaddr() { ip -n "$(ns fw)" -o addr show dev "$1" 2>/dev/null; }
has_addr() { kaddr "$1" | grep -q "inet6\? $2 "; }
ifindex() { ns_exec fw cat "/sys/class/net/$1/ifindex" 2>/dev/null; }
gone() { ! klink "$1" >/dev/null; }
up_carrier() { klink "$1" | grep -q 'NOARP,UP,LOWER_UP'; }
no_carrier() { klink "$1" | grep -q 'NO-CARRIER'; }
admin_down() { ! klink "$1" | grep -q '[<,]UP[,>]'; }

write_cfg true
must daemon_start fw "$T/fwd.yaml"

check "p0.100 is a kernel interface" klink p0.100
check "p0.200 (no tap) is not" gone p0.200
expect "p0.100 has its port's MAC" "$(ns_exec fw cat /sys/class/net/p0.100/address)" = \
	"$(ns_exec fw cat /sys/class/net/d1/address)"
expect "p0.100 has its own MTU" "$(ns_exec fw cat /sys/class/net/p0.100/mtu)" = 1400
check "p0.100 is NOARP, up, with carrier" wait_for 3 up_carrier p0.100
check "lo0 is a kernel interface, up" wait_for 3 up_carrier lo0
check "lo0 carries 192.0.2.1/32" wait_for 3 has_addr lo0 192.0.2.1/32
check "lo0 carries 2001:db8:ff::1/128" wait_for 5 has_addr lo0 2001:db8:ff::1/128
expect "lo0 takes what comes up it from elsewhere (rp_filter 0)" \
	"$(ns_exec fw cat /proc/sys/net/ipv4/conf/lo0/rp_filter)" = 0

check "iface set p0.100 down" fwdctl iface set p0.100 down
check "its kernel interface goes down" wait_for 3 admin_down p0.100
check "iface set p0.100 up" fwdctl iface set p0.100 up
check "and comes up" wait_for 3 up_carrier p0.100
check "port set p0 down" fwdctl port set p0 down
check "the VLAN's kernel interface loses carrier" wait_for 3 no_carrier p0.100
check "the loopback's keeps it" up_carrier lo0
check "port set p0 up" fwdctl port set p0 up
check "the VLAN's has carrier again" wait_for 3 up_carrier p0.100

old=$(ifindex p0.100)
write_cfg false
check "reload without tap on p0.100" fwdctl config reload
check "its kernel interface is gone" wait_for 3 gone p0.100
write_cfg true
check "reload with tap again" fwdctl config reload
check "p0.100 is back" wait_for 3 klink p0.100
expect "with a new ifindex" "$(ifindex p0.100)" != "$old"

check "iface del lo0" fwdctl iface del lo0
check "its kernel interface goes with it" wait_for 3 gone lo0

smoke_done
