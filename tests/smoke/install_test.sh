#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make install / uninstall into a DESTDIR (PREFIX=/usr, as packagers do):
# every file `make install` installs (README, "Installing and running
# under systemd") with its mode, the optimised binaries, the unit through
# systemd-analyze verify, the sysusers and tmpfiles snippets through their tools, the man pages through mandoc and groff,
# bash completion, and /etc/fwd.yaml never overwritten.
# run.sh: alone: make install builds the optimised daemon on both CPUs when
# build/ is not up to date (make check builds it before the tests)
. "$(dirname "$0")/lib.sh"

smoke_init install
D=$T/dest
mk() { env -u MAKEFLAGS -u MAKELEVEL make -s -C "$SRCDIR" -j2 "$@" DESTDIR="$D" PREFIX=/usr; }

check "make install DESTDIR=... PREFIX=/usr" mk install
files=(
	"0755 usr/sbin/fwd-daemon"
	"0755 usr/bin/fwdctl"
	"0755 usr/libexec/fwd/fwd-hugepages"
	"0644 usr/lib/systemd/system/fwd-daemon.service"
	"0644 usr/lib/sysusers.d/fwd.conf"
	"0644 usr/lib/tmpfiles.d/fwd.conf"
	"0644 usr/share/man/man8/fwd-daemon.8"
	"0644 usr/share/man/man8/fwdctl.8"
	"0644 usr/share/man/man5/fwd.yaml.5"
	"0644 usr/share/bash-completion/completions/fwdctl"
	"0644 etc/fwd.yaml"
)
for f in "${files[@]}"; do
	expect "/${f#* } installed, mode ${f%% *}" "$(stat -c '%04a' "$D/${f#* }" 2>&1)" = "${f%% *}"
done
expect "nothing else installed" "$(find "$D" -type f | wc -l)" -eq ${#files[@]}
check "/etc/fwd.yaml is the sample" cmp "$SRCDIR/conf/fwd.yaml" "$D/etc/fwd.yaml"
# valid but for the example ports' PCI addresses, which this machine has not
# (--check looks at the devices: port/port_check.c)
sample_ok() {
	"$D/usr/sbin/fwd-daemon" --check -c "$1" >"$T/check.out" 2>&1
	! grep -E '^[^ ]*:[0-9]+:[0-9]+: ' "$T/check.out" |
		grep -vE ': ports\[[0-9]+\]\.device: (no PCI device|PCI device .* which DPDK cannot)'
}
check "the installed sample is valid but for its example PCI devices" sample_ok "$D/etc/fwd.yaml"
check "fwd-daemon is the optimised build (no sanitizers)" \
	sh -c "! ldd '$D/usr/sbin/fwd-daemon' | grep -q -e asan -e ubsan"
check "fwdctl runs" "$D/usr/bin/fwdctl" --version

# -- the unit
U=$D/usr/lib/systemd/system/fwd-daemon.service
check "ExecStart runs the installed daemon" grep -qx "ExecStart=/usr/sbin/fwd-daemon -c /etc/fwd.yaml" "$U"
check "ExecReload reloads through fwdctl" grep -qx "ExecReload=/usr/bin/fwdctl config reload" "$U"
check "Type=notify" grep -qx "Type=notify" "$U"
check "Restart=on-failure" grep -qx "Restart=on-failure" "$U"
check "RuntimeDirectory=fwd" grep -qx "RuntimeDirectory=fwd" "$U"
check "hugepages reserved before start" grep -qx "ExecStartPre=+/usr/libexec/fwd/fwd-hugepages /etc/fwd.yaml" "$U"
check_fails "no @VARIABLE@ left" grep -q "@[A-Z]*@" "$U"
# verify resolves ExecStart and man pages on this system: point it at the DESTDIR's
sed "s|=\([+-]*\)/usr/|=\1$D/usr/|; s|=/etc/fwd.yaml|=$D/etc/fwd.yaml|" "$U" >"$T/fwd-daemon.service"
MANPATH=$D/usr/share/man systemd-analyze verify "$T/fwd-daemon.service" >"$T/verify.out" 2>&1
expect "systemd-analyze verify passes" "$?" -eq 0
check_fails "and has nothing to say (unknown keys are only warnings)" test -s "$T/verify.out"
sed 's/^/    | /' "$T/verify.out"
# and it does catch a broken unit
sed 's/^ProtectSystem=/ProtectSytem=/; s|^ExecStart=.*|ExecStart=/nonexistent/fwd-daemon|' \
	"$T/fwd-daemon.service" >"$T/broken.service"
# (into a file: grep -q in a pipe would stop verify by SIGPIPE before it
# removes its directories in /tmp)
MANPATH=$D/usr/share/man systemd-analyze verify "$T/broken.service" >"$T/broken.out" 2>&1
check "(verify complains about a misspelt key and a missing binary)" \
	grep -q ProtectSytem "$T/broken.out"

# -- sysusers and tmpfiles snippets, applied to a scratch root
R=$T/root
mkdir -p "$R/etc"
check "systemd-sysusers creates the fwd group" \
	systemd-sysusers --root="$R" "$D/usr/lib/sysusers.d/fwd.conf"
check "fwd is in the scratch root's /etc/group" grep -q "^fwd:x:" "$R/etc/group"
check "systemd-tmpfiles creates /run/fwd" \
	systemd-tmpfiles --root="$R" --create "$D/usr/lib/tmpfiles.d/fwd.conf"
expect "/run/fwd is 0755 (the socket's own mode decides)" "$(stat -c %04a "$R/run/fwd")" = 0755

# -- the hugepage step leaves the system alone when told to
check "fwd-hugepages: nothing to do with FWD_HUGEPAGES=0" \
	env FWD_HUGEPAGES=0 "$D/usr/libexec/fwd/fwd-hugepages" "$D/etc/fwd.yaml"
printf 'dpdk:\n  hugepages: false\nports: []\n' >"$T/nohuge.yaml"
before=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
check "fwd-hugepages: nothing to do with hugepages: false" \
	"$D/usr/libexec/fwd/fwd-hugepages" "$T/nohuge.yaml"
expect "nr_hugepages untouched" "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" \
	= "$before"

# -- man pages
for m in man8/fwd-daemon.8 man8/fwdctl.8 man5/fwd.yaml.5; do
	check "$m: mandoc -Tlint finds nothing" mandoc -Tlint -W style "$D/usr/share/man/$m"
	check "$m: groff -ww finds nothing" sh -c \
		"groff -man -Tutf8 -ww -z '$D/usr/share/man/$m' 2>&1 | grep . && exit 1 || exit 0"
	check "$m: man renders it" sh -c "MANWIDTH=80 man -l '$D/usr/share/man/$m' | grep -q NAME"
done
check "fwd.yaml(5)'s example extracted" sh -c \
	"sed -n '/^\.EX\$/,/^\.EE\$/p' '$D/usr/share/man/man5/fwd.yaml.5' | sed '1d;\$d;s/\\\\-/-/g' \
	>'$T/example.yaml'"
check "fwd.yaml(5)'s example is valid but for its PCI devices" sample_ok "$T/example.yaml"
for o in status port iface bond addr route neigh bridge acl vrf stats capture monitor config; do
	check "fwdctl(8) documents $o" grep -q "^\.SS $o\$" "$D/usr/share/man/man8/fwdctl.8"
done
for k in lcores hugepages memory_mb file_prefix args burst mbufs neigh_timeout_s fib_tbl8s \
	nexthops neigh_max socket socket_group admin_group metrics name device mode peer bridge rx_queues rxd mtu \
	addresses ra fib6_tbl8s fib6_neigh_tbl8s mac_aging_s fdb_max prefix via dev blackhole address mac port; do
	grep -q "^\.BR* $k\b\|^\.BR rxd\b" "$D/usr/share/man/man5/fwd.yaml.5" ||
		fail "fwd.yaml(5) documents $k"
done
pass "fwd.yaml(5) documents every key of conf/fwd.yaml"

# -- bash completion (no daemon: no names, no noise)
complete_at() {
	bash -c '. /usr/share/bash-completion/bash_completion 2>/dev/null; . "$1"; line=$2
		COMP_LINE=$line COMP_POINT=${#line}; read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_fwdctl; echo "${COMPREPLY[*]}"' _ "$D/usr/share/bash-completion/completions/fwdctl" "$1"
}
expect "completion: objects" "$(complete_at 'fwdctl ')" = \
	"status port iface bond addr route neigh bridge acl vrf stats capture monitor config help"
expect "completion: help's objects" "$(complete_at 'fwdctl help r')" = "route"
expect "completion: monitor objects" "$(complete_at 'fwdctl monitor route ')" = \
	"port addr route neigh fdb config drops iface bond vrf"
expect "completion: port commands" "$(complete_at 'fwdctl -j port ')" = "list show set"
expect "completion: capture keywords" "$(complete_at 'fwdctl capture p0 ')" = "rx tx both -c -w"
expect "completion: no daemon, no port names and no noise" \
	"$(FWD_SOCKET=$T/none.sock complete_at 'fwdctl port show ' 2>&1)" = ""

# -- /etc/fwd.yaml is never overwritten
echo "# edited" >>"$D/etc/fwd.yaml"
check "make install again" mk install
check "the edited /etc/fwd.yaml is kept" grep -q "^# edited" "$D/etc/fwd.yaml"

# -- uninstall removes what install added (an edited config stays)
check "make uninstall" mk uninstall
expect "only the edited /etc/fwd.yaml is left" "$(cd "$D" && find . -type f)" = "./etc/fwd.yaml"
rm "$D/etc/fwd.yaml"
check "make install once more" mk install
check "make uninstall removes the unedited sample too" mk uninstall
expect "no file left" "$(find "$D" -type f | wc -l)" -eq 0

exit 0
