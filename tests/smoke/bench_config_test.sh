#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make bench's configurations (tests/bench/configs.py) still pass
# `fwd-daemon --check`: a bench group breaks here, not in the next bench.
# BENCH_CONFIG_GROUPS picks groups (configs.py; default: all of them).
. "$(dirname "$0")/lib.sh"

smoke_init bench_config
"$PY" "$SRCDIR/tests/bench/configs.py" "$BUILD" "$T" ${BENCH_CONFIG_GROUPS:-} ||
	fail "configs.py wrote the bench configurations"
for f in "$T"/*.yaml; do
	check "fwd-daemon --check $(basename "$f")" "$FWD_DAEMON" --check -c "$f"
done
smoke_done
