#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Run every test suite against one build: unit (cmocka), smoke (bash +
# netns), conformance (scapy). Prints one line per test and a final
# "N passed, N failed"; exits non-zero when anything failed. A failed test
# shows every failing line of its output (show_failure), then its tail.
# The end lists the SLOWEST (default 12) tests and each suite's seconds
# (its tests' added up, and its wall time), so a test that grows shows up
# before make check outgrows its budget. Unit tests and fuzzers run JOBS
# at a time (default: the CPUs), smoke and conformance tests NET_JOBS
# (default 2) but those marked "# run.sh: alone" (doc/testing.md).
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
# work takes a fraction of the wall time.
JOBS=${JOBS:-$(nproc)}
# Smoke and conformance tests run NET_JOBS at once (default 2, 1 on one
# CPU): each builds its own namespaces named after its pid and starts a
# daemon with a file prefix of its own (tests/smoke/lib.sh), so two share
# the machine; they mostly wait (pings, timeouts, FRR), and the waits
# overlap. Every daemon's worker polls lcore 1 (lcores "0-1"), so more
# than two would mostly take turns on that CPU. A test that cannot share
# the machine (it builds, installs, measures a rate or a latency, or holds
# something outside its namespaces) says so with a line
#   # run.sh: alone
# and runs with nothing beside it, before the others of its suite; one
# that takes long (30 s and more) says "# run.sh: long" and starts before
# the short ones (net_suite).
# On a machine already busy (other jobs' runnable tasks, sampled over a
# second when a suite starts, as many as the CPUs) they run one at a
# time: there a second test's load delays the daemons' replies past the
# conformance tests' capture windows and the 1 s timers of DAD. NET_JOBS
# set in the environment is taken as it is.
NET_JOBS_SET=${NET_JOBS:+1}
NET_JOBS=${NET_JOBS:-$(($(nproc) > 1 ? 2 : 1))}

# others_running: runnable tasks but this one, averaged over a second, in
# tenths (procs_running of /proc/stat counts the awk that reads it)
others_running() {
	local i n=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		n=$((n + $(awk '/^procs_running/ {print $2 - 1}' /proc/stat)))
		sleep 0.1
	done
	echo $n
}

# net_jobs: sets jobs and jobs_note for a network suite about to start
net_jobs() {
	local busy
	jobs=$NET_JOBS
	jobs_note="$jobs at once"
	[ -z "$NET_JOBS_SET" ] && [ "$jobs" -gt 1 ] || return 0
	busy=$(others_running)
	if [ "$busy" -ge $((10 * $(nproc))) ]; then
		jobs=1
		jobs_note="one at a time: the machine is busy, $((busy / 10)).$((busy % 10)) tasks running"
	fi
}
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

# The pool: tests started and not yet reported, in the order they started.
# A test's line is printed once it and every test started before it have
# finished, so the lines come in that order whatever finishes first, each
# test's output in a log of its own. pool_after says what to print after a
# test's line (the fuzzers' rates), pool_sweep what to do once a test is
# over (the network suites' sweep).
pool=()
pool_after() { :; }
pool_sweep() { :; }

# pool_running: how many tests of the pool are still running
pool_running() {
	local n c=0
	for n in "${pool[@]}"; do
		[ -f "$LOGDIR/$n.rc" ] || c=$((c + 1))
	done
	echo $c
}

# pool_report: reports the finished tests at the head of the pool
pool_report() {
	local n
	while [ ${#pool[@]} -gt 0 ] && [ -f "$LOGDIR/${pool[0]}.rc" ]; do
		n=${pool[0]}
		pool=("${pool[@]:1}")
		test_report "$n"
		pool_after
		pool_sweep
	done
}

# pool_wait MAX: reports what finishes until fewer than MAX tests run
pool_wait() {
	pool_report
	while [ "$(pool_running)" -ge "$1" ]; do
		wait -n 2>/dev/null || sleep 0.1
		pool_report
	done
}

# pool_add MAX NAME TIMEOUT CMD...: starts a test once fewer than MAX run
# (MAX 1: once nothing runs, and waits for it: a test alone).
pool_add() {
	local max=$1
	shift
	[ -n "$PATTERN" ] && [[ "$1" != *$PATTERN* ]] && return 0
	pool_wait "$max"
	test_start "$@"
	pool+=("$started")
	[ "$max" -gt 1 ] || pool_wait 1
}

# pool_flush: waits for every test of the pool and reports it
pool_flush() {
	pool_wait 1
	pool_after() { :; }
	pool_sweep() { :; }
}

# suite NAME [NOTE...]: ends the suite under way (its wall time into
# walls) and starts NAME (none: the end)
walls=()
suite_name=
suite_start=0
suite() {
	[ -n "$suite_name" ] && walls+=("$suite_name $(($(date +%s) - suite_start))")
	suite_name=${1:-}
	suite_start=$(date +%s)
	[ -z "$suite_name" ] || echo "== $*"
}

# marked FILE WORD: whether the test FILE has a line "# run.sh: WORD"
marked() { grep -q "^# run.sh: $2" "$1"; }

# net_suite KIND JOBS CMD...: the tests named on stdin through the pool,
# JOBS at once: those marked alone first, each by itself, then those
# marked long (a long test started last would end the suite by itself),
# then the others; a sweep after each. CMD runs with the test's file
# appended; KIND/BASENAME names it.
net_suite() {
	local kind=$1 jobs=$2 files f
	shift 2
	mapfile -t files < <(while read -r f; do [ -f "$f" ] && echo "$f"; done)
	pool_sweep() { sweep; }
	for f in "${files[@]}"; do
		marked "$f" alone && pool_add 1 "$kind/$(basename "${f%.*}")" 600 "$@" "$f"
	done
	for f in "${files[@]}"; do
		marked "$f" alone || ! marked "$f" long ||
			pool_add "$jobs" "$kind/$(basename "${f%.*}")" 600 "$@" "$f"
	done
	for f in "${files[@]}"; do
		marked "$f" alone || marked "$f" long ||
			pool_add "$jobs" "$kind/$(basename "${f%.*}")" 600 "$@" "$f"
	done
	pool_flush
	sweep
}

suite unit
for t in "$BUILD"/tests/unit/*_test; do
	[ -x "$t" ] && pool_add "$JOBS" "unit/$(basename "$t")" 300 "$t"
done
pool_flush

net_jobs
suite smoke "($jobs_note)"
net_suite smoke "$jobs" bash < <(printf "%s\n" tests/smoke/*_test.sh)

suite fuzz "(${FUZZ_CHECK_SECONDS:-10} s each, $JOBS at once)"
# after a passing fuzzer's line, its rate; a failure has shown its lines already
pool_after() { $last_ok && tail -1 "$LOGDIR/out" | sed 's/^/      /'; }
for f in build/fuzz/*_fuzz; do
	[ -x "$f" ] || continue
	pool_add "$JOBS" "fuzz/$(basename "$f")" 300 bash tests/fuzz/run.sh "${FUZZ_CHECK_SECONDS:-10}" "$f"
done
pool_flush

net_jobs
suite conformance "($jobs_note)"
net_suite conformance "$jobs" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
	< <(printf "%s\n" tests/conformance/test_*.py)
suite

echo
if [ ${#durations[@]} -gt 1 ]; then
	echo "slowest tests (s):"
	printf '%s\n' "${durations[@]}" | sort -rn | head -"${SLOWEST:-12}" |
		awk '{printf "  %4d  %s\n", $1, $2}'
	# each suite's tests added up, then its wall time (tests side by side)
	{
		printf 'wall %s\n' "${walls[@]}"
		printf '%s\n' "${durations[@]}"
	} | awk '$1 == "wall" {w[$2] = $3; next}
		{split($2, k, "/"); if (!(k[1] in s)) o[n++] = k[1]; s[k[1]] += $1}
		END {printf "by suite (tests added up, wall):"
			for (i = 0; i < n; i++) printf "%s %s %d s, %d s", i ? ";" : "", o[i], s[o[i]], w[o[i]]
			print ""}'
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
