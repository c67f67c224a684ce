#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make check-deb: build the Debian package (tests/deb/build.sh, lintian
# clean), install it on this machine with dpkg -i, check what it put where
# (the layout of `make install` with PREFIX=/usr, README "Installing and
# running under systemd"; /etc/fwd.yaml a conffile; the fwd group; the unit
# installed disabled and not started; fwdctl's completion for root), reinstall over an edited config,
# remove, purge, and check that nothing of it is left.
#
# There is no scratch root to install into, so this changes the machine and
# puts it back: it refuses to run where fwd is installed in any form (the
# package, or a `make install` with PREFIX=/usr, or only /etc/fwd.yaml), and
# the EXIT trap purges the package on any failure or timeout. The package
# leaves the fwd group behind on purge, as Debian packages leave system
# groups (files may still belong to it, and a later group given the same
# gid would own them); this test removes the group itself when it was not
# there before, and /run/fwd (made by systemd-tmpfiles, gone at reboot) too.
#
#   tests/deb/deb_test.sh        DEB_TEST_SECONDS bounds it (default 900)
set -u

# bound the whole run; timeout signals the process group, so a build or a
# dpkg in progress stops too and the trap below still cleans up
if [ -z "${DEB_TEST_TIMED:-}" ]; then
	export DEB_TEST_TIMED=1
	exec timeout --kill-after=60 "${DEB_TEST_SECONDS:-900}" bash "$0" "$@"
fi

. "$(dirname "$0")/../smoke/lib.sh"

PKG_PATHS=(
	/usr/sbin/fwd-daemon /usr/bin/fwdctl /usr/libexec/fwd/fwd-hugepages
	/lib/systemd/system/fwd-daemon.service /usr/lib/sysusers.d/fwd.conf
	/usr/lib/tmpfiles.d/fwd.conf /usr/share/man/man8/fwd-daemon.8.gz
	/usr/share/man/man8/fwdctl.8.gz /usr/share/man/man5/fwd.yaml.5.gz
	/usr/share/bash-completion/completions/fwdctl /etc/fwd.yaml
)
WANTS=/etc/systemd/system/multi-user.target.wants/fwd-daemon.service
DSH=/var/lib/systemd/deb-systemd-helper-enabled
# what a `make install PREFIX=/usr` or an earlier package would have left
OTHER_PATHS=(/usr/lib/systemd/system/fwd-daemon.service /usr/libexec/fwd "$WANTS"
	"$DSH/fwd-daemon.service.dsh-also" "$DSH/multi-user.target.wants/fwd-daemon.service")

refuse() {
	echo "deb_test: refusing to run: $*" >&2
	echo "deb_test: it installs and purges the fwd package on this machine" >&2
	exit 2
}

[ "$(id -u)" -eq 0 ] || refuse "not root"
st=$(dpkg-query -W -f='${db:Status-Abbrev}' fwd 2>/dev/null)
case $st in '' | un*) ;; *) refuse "the fwd package is known to dpkg (status '$st')" ;; esac
for p in "${PKG_PATHS[@]}" "${OTHER_PATHS[@]}"; do
	[ -e "$p" ] || [ -L "$p" ] && refuse "$p exists"
done

INSTALLED=0
HAD_GROUP=0
HAD_RUN=0
getent group fwd >/dev/null && HAD_GROUP=1
[ -e /run/fwd ] && HAD_RUN=1

smoke_init deb
deb_cleanup() {
	local rc=$?
	if [ "$INSTALLED" -eq 1 ]; then
		echo "  (cleanup: dpkg --purge fwd)"
		dpkg_do --purge fwd >/dev/null 2>&1 || echo "  cleanup: dpkg --purge fwd failed" >&2
	fi
	[ "$HAD_GROUP" -eq 0 ] && getent group fwd >/dev/null && groupdel fwd
	[ "$HAD_RUN" -eq 0 ] && [ -d /run/fwd ] && rmdir /run/fwd
	(exit $rc)
	smoke_cleanup
}
trap deb_cleanup EXIT

# dpkg_do ARGS...: dpkg, waiting up to a minute for another dpkg or apt
# (another engineer's `make deps`) to let go of the lock
dpkg_do() {
	local i
	for i in $(seq 30); do
		DEBIAN_FRONTEND=noninteractive dpkg "$@" </dev/null >"$T/dpkg.out" 2>&1 && return 0
		grep -q 'lock' "$T/dpkg.out" || break
		sleep 2
	done
	cat "$T/dpkg.out"
	return 1
}

# -- build
if ! bash "$SRCDIR/tests/deb/build.sh" >"$T/build.out" 2>&1; then
	tail -40 "$T/build.out" | sed 's/^/    | /'
	fail "the package builds and lintian has nothing to say"
	exit 1
fi
pass "the package builds and lintian has nothing to say"
DEB=$(grep '/fwd_.*_amd64\.deb$' "$T/build.out")
DBG=$(grep '/fwd-dbgsym_.*_amd64\.deb$' "$T/build.out")
VERSION=$(dpkg-deb -f "$DEB" Version)
expect "a -dbgsym package beside it" -f "$DBG"

# every file the package holds must be new to this machine
dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ {sub(/^\./, "", $6); print $6}' >"$T/files"
while read -r f; do
	[ -e "$f" ] && refuse "$f, in the package, exists"
done <"$T/files"
for p in "${PKG_PATHS[@]}"; do
	check "the package holds $p" grep -qx "$p" "$T/files"
done

# -- install
INSTALLED=1
check "dpkg -i $(basename "$DEB")" dpkg_do -i "$DEB"
expect "dpkg: fwd is installed" "$(dpkg-query -W -f='${db:Status-Abbrev}' fwd)" = "ii "
missing=$(while read -r f; do [ -e "$f" ] || echo "$f"; done <"$T/files")
expect "every file of the package is on the machine" -z "$missing"
check "/etc/fwd.yaml is a conffile" sh -c \
	"dpkg-query -W -f='\${Conffiles}\n' fwd | grep -q '^ /etc/fwd.yaml [0-9a-f]\{32\}\$'"
check "/etc/fwd.yaml is the sample" cmp "$SRCDIR/conf/fwd.yaml" /etc/fwd.yaml
check "the fwd group exists (systemd-sysusers in postinst)" getent group fwd
expect "/run/fwd exists, 0755 (systemd-tmpfiles in postinst)" "$(stat -c %04a /run/fwd 2>&1)" = 0755
# disabled: the sample's ports are examples, so an enabled unit would fail at
# every boot until the operator wrote this machine's (debian/rules)
expect "systemctl is-enabled fwd-daemon: disabled" "$(systemctl is-enabled fwd-daemon 2>&1)" = disabled
check_fails "multi-user.target does not want it" test -L "$WANTS"
# without systemd as PID 1 nothing can start it here: check that postinst
# would not have (deb-systemd-invoke only on upgrade: try-restart)
check_fails "postinst does not start the unit" \
	grep -q 'deb-systemd-invoke \(start\|restart\)' /var/lib/dpkg/info/fwd.postinst
check "an upgrade restarts it only if it runs (try-restart)" \
	grep -q "deb-systemd-invoke try-restart 'fwd-daemon.service'" /var/lib/dpkg/info/fwd.postinst
check "prerm stops the unit on removal" \
	grep -q "deb-systemd-invoke stop 'fwd-daemon.service'" /var/lib/dpkg/info/fwd.prerm
systemd-analyze verify /lib/systemd/system/fwd-daemon.service >"$T/verify.out" 2>&1
expect "systemd-analyze verify passes on the installed unit" "$?" -eq 0
check_fails "and has nothing to say" test -s "$T/verify.out"
sed 's/^/    | /' "$T/verify.out"
/usr/sbin/fwd-daemon --check -c /etc/fwd.yaml >"$T/sample.out" 2>&1
expect "fwd-daemon --check -c /etc/fwd.yaml: valid but for its example PCI addresses" \
	"$(grep -E '^/etc/fwd.yaml:[0-9]+:[0-9]+: ' "$T/sample.out" |
		grep -vcE ': ports\[[0-9]+\]\.device: (no PCI device|PCI device .* which DPDK cannot)')" = 0
# bash-completion loads completions on demand from
# /usr/share/bash-completion/completions; Debian's root ~/.bashrc does not
# load bash-completion, /etc/profile.d/bash_completion.sh does in login
# shells (sudo -i, ssh, the console)
check "root's login shell completes fwdctl (bash-completion loads it on demand)" \
	env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -lic \
	'__load_completion fwdctl && complete -p fwdctl | grep -q _fwdctl'
check "and completes its objects" env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	bash -lic '__load_completion fwdctl; COMP_WORDS=(fwdctl ro); COMP_CWORD=1;
		COMP_LINE="fwdctl ro"; COMP_POINT=9; _fwdctl; [ "${COMPREPLY[*]}" = route ]'
expect "fwd-daemon --version names the package version" \
	-n "$(/usr/sbin/fwd-daemon --version 2>&1 | grep -F "$VERSION")"
check "fwdctl --help" /usr/bin/fwdctl --help
expect "fwdctl --version names the package version" \
	-n "$(/usr/bin/fwdctl --version 2>&1 | grep -F "$VERSION")"
check "man finds fwdctl(8)" sh -c "man -w fwdctl | grep -qx /usr/share/man/man8/fwdctl.8.gz"
for b in /usr/sbin/fwd-daemon /usr/bin/fwdctl; do
	id=$(readelf -n "$b" | sed -n 's/.*Build ID: //p')
	check "-dbgsym holds the symbols of $b" sh -c \
		"dpkg-deb -c '$DBG' | grep -q './usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug\$'"
done

# -- an edited config survives a reinstall and a remove
echo "# edited by deb_test" >>/etc/fwd.yaml
check "dpkg -i again, over the edited /etc/fwd.yaml" dpkg_do -i "$DEB"
check "the edit is kept" grep -qx "# edited by deb_test" /etc/fwd.yaml
check "dpkg --remove fwd" dpkg_do --remove fwd
expect "dpkg: only the conffile is left" "$(dpkg-query -W -f='${db:Status-Abbrev}' fwd)" = "rc "
check "the edited /etc/fwd.yaml stays" grep -qx "# edited by deb_test" /etc/fwd.yaml
check_fails "/usr/sbin/fwd-daemon is gone" test -e /usr/sbin/fwd-daemon

# -- purge: nothing of it left
check "dpkg --purge fwd" dpkg_do --purge fwd
st=$(dpkg-query -W -f='${db:Status-Abbrev}' fwd 2>/dev/null)
case $st in '' | un*) INSTALLED=0 ;; esac
expect "dpkg: fwd is gone" "$INSTALLED" -eq 0
left=$(for p in $(cat "$T/files") /usr/libexec/fwd "${OTHER_PATHS[@]}"; do
	[ -e "$p" ] || [ -L "$p" ] && echo "$p"
done)
expect "no file of it is left (the conffile, the wants link, deb-systemd-helper's state)" -z "$left"
[ -n "$left" ] && echo "$left" | sed 's/^/    | /'
check_fails "no dpkg info file left" sh -c "ls /var/lib/dpkg/info/fwd.* 2>/dev/null | grep ."
if [ "$HAD_GROUP" -eq 0 ]; then
	check "the fwd group stays after purge (Debian leaves system groups)" getent group fwd
fi

exit 0
