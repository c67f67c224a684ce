#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Run every test suite against one build: unit (cmocka), smoke (bash +
# netns), conformance (scapy). Prints one line per test and a final
# "N passed, N failed"; exits non-zero when anything failed.
#
#   tests/run.sh [BUILD_DIR] [PATTERN]     (default build/san; PATTERN filters test names)
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build/san}
PATTERN=${2:-}
export SRCDIR=$PWD BUILD=$PWD/$BUILD FWD_SRCDIR=$PWD
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

passed=0
failed=0
failures=()
LOGDIR=$(mktemp -d /tmp/fwd-tests.XXXXXX)

# Leftovers of an earlier run that was killed (namespaces, daemons). A
# namespace is named after the test script's pid (lib.sh): while that
# process lives, the namespace belongs to a test still running, perhaps
# from another checkout on this machine, and is left alone.
sweep() {
	ip netns list 2>/dev/null | awk '/^fwdt[0-9]+-/ {print $1}' | while read -r n; do
		owner=${n#fwdt}
		kill -0 "${owner%%-*}" 2>/dev/null && continue
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	pkill -KILL -f "$BUILD/fwd-daemon" 2>/dev/null
	return 0
}
trap 'sweep; rm -rf "$LOGDIR"' EXIT
trap 'exit 130' INT TERM
sweep

# run_one NAME TIMEOUT CMD...: returns 1 when PATTERN leaves the test out
run_one() {
	local name=$1 secs=$2 start rc
	shift 2
	[ -n "$PATTERN" ] && [[ "$name" != *$PATTERN* ]] && return 1
	start=$(date +%s)
	timeout --kill-after=10 "$secs" "$@" >"$LOGDIR/out" 2>&1
	rc=$?
	local took=$(($(date +%s) - start))
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %-40s %4ss\n' "$name" "$took"
	else
		failed=$((failed + 1))
		failures+=("$name")
		[ $rc -eq 124 ] && echo "  (timed out after ${secs}s)" >>"$LOGDIR/out"
		printf 'FAIL  %-40s %4ss\n' "$name" "$took"
		sed 's/^/    /' "$LOGDIR/out" | tail -80
	fi
	[ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$LOGDIR/out"
	return 0
}

echo "== unit"
for t in "$BUILD"/tests/unit/*_test; do
	[ -x "$t" ] && run_one "unit/$(basename "$t")" 300 "$t"
done

echo "== smoke"
for t in tests/smoke/*_test.sh; do
	run_one "smoke/$(basename "$t" .sh)" 600 bash "$t"
	sweep
done

echo "== fuzz (${FUZZ_CHECK_SECONDS:-10} s each)"
for f in build/fuzz/*_fuzz; do
	[ -x "$f" ] || continue
	run_one "fuzz/$(basename "$f")" 300 bash tests/fuzz/run.sh "${FUZZ_CHECK_SECONDS:-10}" "$f" &&
		tail -1 "$LOGDIR/out" | sed 's/^/      /'
done

echo "== conformance"
for t in tests/conformance/test_*.py; do
	[ -f "$t" ] || continue
	run_one "conformance/$(basename "$t" .py)" 600 \
		/usr/bin/python3 -m pytest -q -p no:cacheprovider "$t"
	sweep
done

echo
for f in "${failures[@]}"; do
	echo "failed: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
