#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""How long `status` takes to answer while a command runs.

    status_probe.py SOCKET INTERVAL_MS -- COMMAND [ARG...]

Asks status on one connection (fwdrpc.py, the RPC spoken directly: no
process start in the figure) every INTERVAL_MS from just before COMMAND
starts until it has exited, and prints one JSON document: the number of
answers, the worst and the 99th percentile round trip in ms, the answers
over 100 ms, COMMAND's exit status and its output (stdout and stderr).
COMMAND runs at normal priority whatever the probe's (chrt).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdrpc  # noqa: E402


def ask(c):
    t0 = time.monotonic()
    st, _ = c.call(fwdrpc.STATUS)
    if st != 0:
        raise SystemExit("status refused: errno %d" % st)
    return (time.monotonic() - t0) * 1000


def main():
    sock, interval = sys.argv[1], float(sys.argv[2]) / 1000
    cmd = sys.argv[4:] if sys.argv[3] == "--" else sys.argv[3:]
    c = fwdrpc.Client(sock, timeout=120)
    ask(c)
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=lambda:
                            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0)))
    times, tick = [], time.monotonic()
    while True:
        done = proc.poll() is not None
        times.append(ask(c))
        if done:
            break
        tick += interval
        time.sleep(max(0.0, tick - time.monotonic()))
    out.seek(0)
    times.sort()
    print(json.dumps({
        "n": len(times),
        "max_ms": round(times[-1], 1),
        "p99_ms": round(times[int(len(times) * 0.99)], 1),
        "over_100": sum(t >= 100 for t in times),
        "rc": proc.returncode,
        "output": out.read().decode(errors="replace").strip(),
    }))


if __name__ == "__main__":
    main()
