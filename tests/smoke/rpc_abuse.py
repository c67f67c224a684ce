#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Abuse the control socket while a well-behaved client measures how fast
`status` answers on a fresh connection every 50 ms.

    rpc_abuse.py SOCKET DAEMON_PID SECONDS

The well-behaved client is a process of its own (this script with
--probe SOCKET SECONDS; it prints its latencies as JSON), like fwdctl: in
the abusers' process it would mostly measure the wait for Python's GIL
among 235 threads.

At the same time: 200 concurrent clients asking status in a loop, clients
that send a length and vanish, oversized lengths, garbage, partial frames
left hanging, and slow readers of a large route list. Afterwards every
abuser closes and the daemon's open file count must come back to its
baseline. Prints one JSON document with the measurements.
"""
import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdrpc  # noqa: E402

PROBE = sys.argv[1] == "--probe"
if PROBE:
    SOCK, PID, SECONDS = sys.argv[2], 0, float(sys.argv[3])
else:
    SOCK, PID, SECONDS = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
stop = threading.Event()
errors = []
counts = {"status_ok": 0, "closed_by_daemon": 0, "slow_bytes": 0}
lock = threading.Lock()


def fds():
    return len(os.listdir("/proc/%d/fd" % PID))


def bump(key, n=1):
    with lock:
        counts[key] += n


def raw():
    return fwdrpc.Client(SOCK, timeout=5).s  # connects as fwdctl does (waits for the backlog)


def closed_by_peer(s):
    try:
        return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def busy_client():
    try:
        c = fwdrpc.Client(SOCK)
        while not stop.is_set():
            st, _ = c.call(fwdrpc.STATUS)
            if st != 0:
                errors.append("status refused: %d" % st)
            bump("status_ok")
            time.sleep(random.uniform(0.01, 0.05))
        c.close()
    except Exception as e:  # noqa: BLE001
        errors.append("busy client: %r" % e)


def hostile(kind):
    while not stop.is_set():
        try:
            s = raw()
            if kind == "vanish":
                s.sendall(struct.pack(">I", 1000) + b"abc")
            elif kind == "oversize":
                s.sendall(struct.pack(">I", 0xFFFFFFFF))
            elif kind == "zero":
                s.sendall(struct.pack(">I", 0))
            else:
                n = random.randint(1, 64)
                s.sendall(struct.pack(">I", n) + os.urandom(n))
            if kind != "vanish" and closed_by_peer(s):
                bump("closed_by_daemon")
            s.close()
        except OSError as e:
            errors.append("%s: %r" % (kind, e))
        time.sleep(0.02)


def hanging():
    """A partial frame left open until the end (the daemon's 30 s timeout is longer)."""
    try:
        s = raw()
        s.sendall(struct.pack(">I", 100) + b"x" * 10)
        stop.wait()
        s.close()
    except OSError as e:
        errors.append("hanging: %r" % e)


def slow_reader():
    try:
        s = raw()
        s.sendall(fwdrpc.frame(fwdrpc.request(1, fwdrpc.ROUTE_LIST)))
        while not stop.is_set():
            data = s.recv(4096)
            if not data:
                break
            bump("slow_bytes", len(data))
            time.sleep(0.1)
        s.close()
    except OSError as e:
        errors.append("slow reader: %r" % e)


def probe():
    """The --probe process: status on a fresh connection every 50 ms."""
    lat, errs = [], []
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            c = fwdrpc.Client(SOCK, timeout=5)
            st, _ = c.call(fwdrpc.STATUS)
            c.close()
            if st != 0:
                errs.append("probe status %d" % st)
        except Exception as e:  # noqa: BLE001
            errs.append("probe: %r" % e)
        lat.append((time.monotonic() - t0) * 1000)
        time.sleep(0.05)
    print(json.dumps({"lat": lat, "errors": errs}))


def main():
    base = fds()
    threads = [threading.Thread(target=busy_client) for _ in range(200)]
    threads += [threading.Thread(target=hostile, args=(k,)) for k in
                ("vanish", "oversize", "zero", "garbage") for _ in range(5)]
    threads += [threading.Thread(target=hanging) for _ in range(20)]
    threads += [threading.Thread(target=slow_reader) for _ in range(10)]
    for t in threads:
        t.start()
    time.sleep(1)  # let the crowd gather before measuring
    peak = fds()
    prober = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--probe", SOCK,
                               str(SECONDS)], stdout=subprocess.PIPE)
    time.sleep(SECONDS)
    peak = max(peak, fds())
    out, _ = prober.communicate(timeout=30)
    probed = json.loads(out)
    lat = probed["lat"]
    errors.extend(probed["errors"])
    stop.set()
    for t in threads:
        t.join(15)
    deadline, final = time.monotonic() + 10, fds()
    while final > base and time.monotonic() < deadline:
        time.sleep(0.2)
        final = fds()
    lat.sort()
    print(json.dumps({
        "probes": len(lat), "max_ms": round(lat[-1], 1) if lat else None,
        "p50_ms": round(lat[len(lat) // 2], 1) if lat else None,
        "p99_ms": round(lat[int(len(lat) * 0.99)], 1) if lat else None,
        "fd_base": base, "fd_peak": peak, "fd_final": final,
        "counts": counts, "errors": errors[:10], "n_errors": len(errors)}))


if __name__ == "__main__":
    probe() if PROBE else main()
