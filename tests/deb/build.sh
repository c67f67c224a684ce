#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the Debian package (`make deb`): build/deb/fwd_VERSION_amd64.deb and
# its -dbgsym, then lintian on them (fails on errors and warnings).
#
# dpkg-buildpackage runs in a copy of the tracked files, under build/deb/,
# so the checkout stays clean. The version comes from git, since no
# changelog is committed: 0.1+git<commit time, UTC>.<short sha>, the 0.1
# being the newest annotated tag when there is one (as the Makefile's
# `git describe`); ".dirty" is added when the work tree differs from the
# commit, since the copy takes the work tree as it is (less what git ignores).
#
#   tests/deb/build.sh            prints the .deb paths, one a line, last
set -eu
cd "$(dirname "$0")/../.."
OUT=build/deb
JOBS=${JOBS:-2}

git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
	echo "deb: not a git checkout: the version comes from git" >&2
	exit 1
}
base=$(git describe --abbrev=0 2>/dev/null || echo 0.1)
base=${base#v}
when=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d.%H%M%S)
sha=$(git rev-parse --short HEAD)
version=$base+git$when.$sha
dirty=
if [ -n "$(git status --porcelain)" ]; then
	version=$version.dirty
	dirty=", with uncommitted changes"
	echo "deb: the work tree differs from $sha: version $version" >&2
fi

# debian/control's Maintainer signs the changelog; the commit's time dates it
# (and, through SOURCE_DATE_EPOCH, the files in the package).
maintainer=$(sed -n 's/^Maintainer: //p' debian/control)
date=$(LC_ALL=C date -R -u -d "@$(git log -1 --format=%ct)")

rm -rf "$OUT"
src=$OUT/fwd-$version
mkdir -p "$src"
# the files git knows or would add, as they are now (a deleted one is skipped)
git ls-files -z --cached --others --exclude-standard | tar -c --null --ignore-failed-read -T - -f - 2>/dev/null | tar -x -C "$src"
cat >"$src/debian/changelog" <<EOF
fwd ($version) bookworm; urgency=medium

  * Built from git commit $(git rev-parse HEAD)
    ($(git describe --always)$dirty).

 -- $maintainer  $date
EOF

echo "deb: building fwd $version (log: $OUT/build.log)" >&2
if ! (cd "$src" && dpkg-buildpackage -b -us -uc -J"$JOBS") >"$OUT/build.log" 2>&1; then
	tail -40 "$OUT/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log: $OUT/build.log)" >&2
	exit 1
fi
rm -rf "$src"

changes=$OUT/fwd_${version}_amd64.changes
echo "deb: lintian" >&2
# lintian warns when run as root; it needs no privilege
as=
[ "$(id -u)" -eq 0 ] && runuser -u nobody -- test -r "$changes" 2>/dev/null && as="runuser -u nobody --"
$as lintian --fail-on error,warning --info "$changes" >&2
ls "$OUT"/*.deb
