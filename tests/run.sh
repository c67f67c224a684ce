#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Run every test suite against one build: unit (cmocka), smoke (bash +
# netns), conformance (scapy). Prints one line per test and a final
# "N passed, N failed"; exits non-zero when anything failed. A failed test
# shows every failing line of its output (show_failure), then its tail.
# The end lists the SLOWEST (default 12) tests and the suites' wall time,
# so a test that grows shows up before make check outgrows its budget.
# Unit tests and fuzzers run JOBS at a time (default: the CPUs).
#
#   tests/run.sh [BUILD_DIR] [PATTERN]     (default build/san; PATTERN filters test names)
#   bash tests/run.sh build/san smoke/ops_test     one test (a failed run prints this line)
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
durations=() # "SECONDS NAME" of every test run, for the summary
run_start=$(date +%s)
LOGDIR=$(mktemp -d /tmp/fwd-tests.XXXXXX)

# Leftovers of an earlier run that was killed (namespaces, daemons). A
# namespace is named after the test script's pid (lib.sh): while that
# process lives, the namespace belongs to a test still running, perhaps
# from another checkout on this machine, and is left alone. A daemon of
# this build is a leftover only once orphaned (its parent, the test that
# started it, gone: adopted by init): another run.sh of the same checkout
# (one test rerun while make check runs) keeps its own.
sweep() {
	local pid
	ip netns list 2>/dev/null | awk '/^fwdt[0-9]+-/ {print $1}' | while read -r n; do
		owner=${n#fwdt}
		kill -0 "${owner%%-*}" 2>/dev/null && continue
		ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	for pid in $(pgrep -f "$BUILD/fwd-daemon"); do
		[ "$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')" = 1 ] && kill -KILL "$pid" 2>/dev/null
	done
	return 0
}
trap 'sweep; rm -rf "$LOGDIR"' EXIT
trap 'exit 130' INT TERM
sweep

# What a failure looks like in each kind of test, so a red run names it even
# when the output is long: smoke checks (lib.sh fail: "  FAIL - "), cmocka
# ("[  FAILED  ]", "[  ERROR   ]" with the assertion, "[   LINE   ]" with
# file:line), pytest ("FAILED"/"ERROR" summary lines, "E   " assertion
# lines, "file.py:N: Error" locations), the fuzz runner (tests/fuzz/run.sh),
# sanitizers and libFuzzer (their reports), and this script's own timeout note.
FAIL_RE='^  FAIL - |^\[  (FAILED|ERROR) +\]|^\[   LINE   \]|^(FAILED|ERROR) |^E   |'
FAIL_RE+='^[^ ]+\.py:[0-9]+: [A-Za-z]*(Error|Exception)|: FAILED \(artifacts|: a regression input fails'
FAIL_RE+='|ERROR: [A-Za-z]*Sanitizer|ERROR: libFuzzer|SUMMARY: [A-Za-z]*Sanitizer|runtime error: '
FAIL_RE+='|deadly signal|^  \(timed out after'
FAIL_MAX=200 # failing lines shown at most: a test that fails everything still leaves a readable log
TAIL=40

# failing_lines LOG: every line of LOG matching FAIL_RE with its line number,
# the line before it (the cmocka test's name, the smoke step that led to it)
# and the lines that belong to it (a smoke check's "    | " output, a
# sanitizer's "#N" stack frames); "--" between groups that are apart.
failing_lines() {
	# the pattern goes through the environment: awk -v would eat its backslashes
	FAIL_RE=$FAIL_RE awk -v max="$FAIL_MAX" '
		function show(n, text) {
			if (last && n > last + 1) print "--"
			printf "%d: %s\n", n, text
			last = n
		}
		$0 ~ ENVIRON["FAIL_RE"] && shown >= max { more++; follow = 0; next }
		$0 ~ ENVIRON["FAIL_RE"] {
			if (NR > 1 && last < NR - 1) show(NR - 1, prev)
			show(NR, $0)
			shown++
			follow = 15
			prev = $0
			next
		}
		follow > 0 && ($0 ~ /^    \| / || $0 ~ /^ *#[0-9]+ /) { show(NR, $0); follow--; prev = $0; next }
		{ follow = 0; prev = $0 }
		END { if (more) printf "(%d more failing lines: VERBOSE=1 shows the whole output)\n", more }
	' "$1"
}

# show_failure LOG: the failing lines, then the tail for context; a short
# output, all of it once.
show_failure() {
	local lines n
	n=$(wc -l <"$1")
	if [ "$n" -le "$TAIL" ]; then
		echo "    -- output ($n lines):"
		sed 's/^/    /' "$1"
		return
	fi
	lines=$(failing_lines "$1" | sed 's/^/    /')
	if [ -n "$lines" ]; then
		echo "    -- failing lines (line number: text):"
		echo "$lines"
	else
		echo "    -- no failing line recognised in the output: see its end"
	fi
	echo "    -- last $TAIL of $n lines:"
	tail -"$TAIL" "$1" | sed 's/^/    /'
}

# Unit tests and fuzzers are CPU-bound and independent of each other (the
# unit tests that start EAL name their files after their pid): JOBS of them
# (default: the CPUs) run at once, each on a CPU of its own, so the same
# work takes a fraction of the wall time; their lines come in the order they
# started. Smoke and conformance tests run one at a time: each starts a
# daemon whose worker lcore polls a CPU.
JOBS=${JOBS:-$(nproc)}
seq_no=0

# test_start NAME TIMEOUT CMD...: runs the test in the background, its
# output in $LOGDIR/N.out, its status and seconds in N.rc and N.took; the
# test's number in $started. Returns 1 when PATTERN leaves the test out.
test_start() {
	local name=$1 secs=$2 n
	shift 2
	[ -n "$PATTERN" ] && [[ "$name" != *$PATTERN* ]] && return 1
	seq_no=$((seq_no + 1))
	n=$seq_no
	started=$n
	echo "$name" >"$LOGDIR/$n.name"
	(
		start=$(date +%s)
		timeout --kill-after=10 "$secs" "$@" >"$LOGDIR/$n.out" 2>&1
		rc=$?
		[ $rc -eq 124 ] && echo "  (timed out after ${secs}s)" >>"$LOGDIR/$n.out"
		echo $(($(date +%s) - start)) >"$LOGDIR/$n.took"
		echo $rc >"$LOGDIR/$n.rc"
	) &
	return 0
}

# test_report N: the PASS/FAIL line of test N (finished), its failure and
# counts; last_ok says whether it passed, $LOGDIR/out is its output.
test_report() {
	local n=$1 name rc took
	name=$(cat "$LOGDIR/$n.name")
	rc=$(cat "$LOGDIR/$n.rc")
	took=$(cat "$LOGDIR/$n.took")
	mv "$LOGDIR/$n.out" "$LOGDIR/out"
	durations+=("$took $name")
	last_ok=false
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		last_ok=true
		printf 'PASS  %-40s %4ss\n' "$name" "$took"
	else
		failed=$((failed + 1))
		failures+=("$name")
		printf 'FAIL  %-40s %4ss\n' "$name" "$took"
		show_failure "$LOGDIR/out"
	fi
	[ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$LOGDIR/out"
	return 0
}

# run_one NAME TIMEOUT CMD...: one test, in the foreground; returns 1 when
# PATTERN leaves the test out; last_ok says whether it ran and passed.
run_one() {
	last_ok=false
	test_start "$@" || return 1
	wait
	test_report "$started"
}

# pool_add NAME TIMEOUT CMD...: a test for the pool (JOBS at once); when the
# pool is full, waits for its oldest test and reports it (pool_report says
# what to print after a test's line: pool_flush reports the rest).
pool=()
pool_add() {
	test_start "$@" || return 0
	pool+=("$started")
	[ ${#pool[@]} -lt "$JOBS" ] || pool_next
}
pool_next() {
	local n=${pool[0]}
	pool=("${pool[@]:1}")
	while [ ! -f "$LOGDIR/$n.rc" ]; do
		wait -n 2>/dev/null || sleep 0.1
	done
	test_report "$n"
	pool_after
}
pool_after() { :; }
pool_flush() {
	while [ ${#pool[@]} -gt 0 ]; do
		pool_next
	done
	pool_after() { :; }
}

echo "== unit"
for t in "$BUILD"/tests/unit/*_test; do
	[ -x "$t" ] && pool_add "unit/$(basename "$t")" 300 "$t"
done
pool_flush

echo "== smoke"
for t in tests/smoke/*_test.sh; do
	run_one "smoke/$(basename "$t" .sh)" 600 bash "$t"
	sweep
done

echo "== fuzz (${FUZZ_CHECK_SECONDS:-10} s each, $JOBS at once)"
# after a passing fuzzer's line, its rate; a failure has shown its lines already
pool_after() { $last_ok && tail -1 "$LOGDIR/out" | sed 's/^/      /'; }
for f in build/fuzz/*_fuzz; do
	[ -x "$f" ] || continue
	pool_add "fuzz/$(basename "$f")" 300 bash tests/fuzz/run.sh "${FUZZ_CHECK_SECONDS:-10}" "$f"
done
pool_flush

echo "== conformance"
for t in tests/conformance/test_*.py; do
	[ -f "$t" ] || continue
	run_one "conformance/$(basename "$t" .py)" 600 \
		/usr/bin/python3 -m pytest -q -p no:cacheprovider "$t"
	sweep
done

echo
if [ ${#durations[@]} -gt 1 ]; then
	echo "slowest tests (s):"
	printf '%s\n' "${durations[@]}" | sort -rn | head -"${SLOWEST:-12}" |
		awk '{printf "  %4d  %s\n", $1, $2}'
	printf '%s\n' "${durations[@]}" | awk '{split($2, k, "/"); if (!(k[1] in s)) o[n++] = k[1]; s[k[1]] += $1}
		END {printf "by suite:"; for (i = 0; i < n; i++) printf "%s %s %d s", i ? "," : "", o[i], s[o[i]]; print ""}'
	echo "tests took $(($(date +%s) - run_start)) s in all"
fi
for f in "${failures[@]}"; do
	echo "failed: $f"
done
echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
	# a PATTERN matches by substring: the test's own name reruns it alone
	# (and unit tests of the same name), VERBOSE=1 with its whole output
	echo "rerun one: bash tests/run.sh ${BUILD#"$SRCDIR"/} ${failures[0]}   (VERBOSE=1 for its whole output)"
fi
[ "$failed" -eq 0 ]
