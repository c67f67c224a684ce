#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Run each libFuzzer target for SECONDS from the committed seed corpus, then
# replay the committed regression inputs (every crasher found so far).
# Prints executions per second and total executions per target.
#
#   tests/fuzz/run.sh SECONDS [TARGET...]     (targets: build/fuzz/*_fuzz)
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(build/fuzz/*_fuzz)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rc=0
for bin in "${targets[@]}"; do
	name=$(basename "$bin" _fuzz)
	work=build/fuzz/corpus/$name
	art=build/fuzz/artifacts/$name
	mkdir -p "$work" "$art"
	dict=()
	[ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
	log=build/fuzz/$name.log
	# regressions first: each must run clean
	if ls tests/fuzz/regress/"$name"/* >/dev/null 2>&1; then
		if ! "$bin" "${dict[@]}" -runs=1 tests/fuzz/regress/"$name"/* >"$log" 2>&1; then
			echo "$name: a regression input fails:"
			tail -30 "$log"
			rc=1
			continue
		fi
	fi
	# new inputs go to the build copy; the committed seeds are only read
	if ! "$bin" "${dict[@]}" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=4096 -artifact_prefix="$art/" "$work" "tests/fuzz/corpus/$name" \
		>"$log" 2>&1; then
		echo "$name: FAILED (artifacts in $art, log $log):"
		grep -E 'ERROR|SUMMARY|panic|abort|runtime error' "$log" | head -20
		rc=1
		continue
	fi
	execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
	rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
	echo "$name: ${execs:-?} executions in ${secs}s (${rate:-?} exec/s), no crash"
done
exit $rc
