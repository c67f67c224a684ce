#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's tour, as written there (the fenced block after
# "<!-- readme: tour -->"), run line by line on the demo's configuration
# (conf/demo.yaml's ports and routes) in the demo's topology and
# addresses: each fwdctl line must succeed. Then what the README and
# fwdctl(8) say about output: which counters plain `fwdctl stats` and `-j`
# show, and a refused config's diagnostic shown as the daemon wrote it
# (several lines, the caret in its column), with the exit status of -j the
# same as without.
#
#   h1 10.0.1.2 --- dp0 p0 [fwd, conf/demo.yaml] p1 dp1 --- h2 10.0.2.2 (10.0.3.1 on lo)
#
# The demo's VLAN hosts (h3, h4 behind a switch on p0's trunk) are left out:
# the tour's VLAN and loopback lines need no traffic on them, and
# smoke/vlan_test routes through VLANs; p0.100, p0.200 and lo0 are there.
. "$(dirname "$0")/lib.sh"

smoke_init tour
README=$SRCDIR/README.md
awk '$0 == "<!-- readme: tour -->" { want = 1; next }
	want && /^```/ { if (inside) exit; inside = 1; next }
	inside { print }' "$README" >"$T/tour"
expect "README has the tour" "$(grep -c '^fwdctl ' "$T/tour")" -ge 10

ns_add h1 h2 fw
ns_ipv6 h1 h2
veth h1 eth0 fw dp0
veth h2 eth0 fw dp1
ns_host h1 eth0 10.0.1.2/24 10.0.1.1
ns_host6 h1 eth0 2001:db8:1::2/64 2001:db8:1::1
ns_host h2 eth0 10.0.2.2/24 10.0.2.1
ns_host6 h2 eth0 2001:db8:2::2/64 2001:db8:2::1
ip -n "$(ns h2)" addr add 10.0.3.1/24 dev lo
ip -n "$(ns h2)" -6 addr add 2001:db8:3::1/64 dev lo nodad

# the demo's ports and routes under the test's own dpdk and control keys
sed -n '/^ports:/,$p' "$SRCDIR/conf/demo.yaml" | daemon_config >/dev/null
must daemon_start fw "$T/fwd.yaml"
check "h1 pings 10.0.3.1 through fwd (as the demo does first)" \
	ns_exec h1 ping -c 2 -i 0.3 -W 2 10.0.3.1
check "h1 pings 2001:db8:3::1 through fwd" wait_for 5 ns_exec h1 ping -6 -c 1 -W 1 2001:db8:3::1

n=0
while IFS= read -r line; do
	case $line in
	fwdctl\ *)
		n=$((n + 1))
		check "tour: ${line%%  *}" eval "$line"
		;;
	alias\ *) ;;
	*) [ -n "$line" ] && fail "tour: a line the test cannot run: $line" ;;
	esac
done <"$T/tour"
expect "every tour line ran" "$n" = "$(grep -c '^fwdctl ' "$T/tour")"
check "the tour's route del removed 198.51.100.0/24" \
	sh -c "! '$FWDCTL_BIN' -s '$SOCK' route list | grep -q '^198.51.100.0/24'"
check "route get 10.0.3.1 answers with the demo's static route" \
	sh -c "'$FWDCTL_BIN' -s '$SOCK' route get 10.0.3.1 | grep -q 'via 10.0.2.2'"
fwdctl iface list >"$T/ifaces"
for i in p0 p1 p0.100 p0.200 lo0; do
	check "iface list has the demo's $i" grep -q "^$i " "$T/ifaces"
done
check_fails "the tour's iface del removed p0.300 and lo1" grep -Eq "^(p0.300|lo1) " "$T/ifaces"
check_fails "... and p0.300's addresses with it" \
	sh -c "'$FWDCTL_BIN' -s '$SOCK' addr list | grep -Eq '10.0.30.1|2001:db8:300::1'"

# -- README, Troubleshooting: zero counters are hidden in plain output, in -j
fwdctl stats clear
fwdctl stats p0 >"$T/plain"
fwdctl -j stats p0 >"$T/json"
check_fails "plain stats hides zero device counters" grep -q "rx_missed_errors=0" "$T/plain"
for c in rx_missed_errors rx_mbuf_allocation_errors kernel_rx_dropped; do
	check "-j stats has $c at zero" grep -q "\"name\":\"$c\",\"value\":0" "$T/json"
done

# -- a refused file: the diagnostic as the daemon wrote it, -j's exit status
cp "$T/fwd.yaml" "$T/good.yaml"
sed -i 's/^  mbufs: .*/&\n  burst: 9999/' "$T/fwd.yaml"
fwdctl config reload 2>"$T/err"
expect "config reload of a bad file exits 1" "$?" = 1
sed 's/^/    | /' "$T/err"
check "the diagnostic's first line: file:line:col and the reason" \
	grep -Eq "^fwdctl: config reload: $T/fwd.yaml:[0-9]+:10: dataplane.burst: 9999 is out of range" "$T/err"
check "its second line: the line of the file" grep -qx "  burst: 9999" "$T/err"
check "its third: the caret under the value" grep -qx "         ^" "$T/err"
check_fails "no '?' where newlines were" grep -q "9999?" "$T/err"
fwdctl -j config check "$T/fwd.yaml" >"$T/check.json" 2>&1
expect "-j config check of the bad file exits 1" "$?" = 1
check "... and says ok:false" grep -q '"ok":false' "$T/check.json"
fwdctl -j config reload >/dev/null 2>&1
expect "-j config reload of the bad file exits 1" "$?" = 1
cp "$T/good.yaml" "$T/fwd.yaml"
check "config reload of the good file" fwdctl config reload
smoke_done
