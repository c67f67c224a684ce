#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Route churn through the control socket at a fixed pace, on one connection.

    rpc_churn.py SOCKET SECONDS INTERVAL_MS

Uses fwdrpc.py (the RPC spoken directly), so the pace is not bound by
starting a process per change. Every 4 steps: replace the route
10.31.3.0/24 (which carries the test's TCP stream) with `dev p1`, add
10.99.N.0/24, replace 10.31.3.0/24 without dev, delete 10.99.N.0/24.
Prints the number of changes applied; exits 1 on any refused change.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdrpc  # noqa: E402


def main():
    path, seconds, interval = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]) / 1000
    c = fwdrpc.Client(path)
    n, start = 0, time.monotonic()
    while time.monotonic() - start < seconds:
        k = n // 4 % 200
        req = [fwdrpc.route_add("10.31.3.0/24", "10.31.2.2", "p1"),
               fwdrpc.route_add("10.99.%d.0/24" % k, "10.31.2.2"),
               fwdrpc.route_add("10.31.3.0/24", "10.31.2.2"),
               fwdrpc.route_del("10.99.%d.0/24" % k)][n % 4]
        st, _ = c.call(*req)
        if st != 0:
            print("change %d refused: errno %d" % (n, st), file=sys.stderr)
            sys.exit(1)
        n += 1
        time.sleep(max(0.0, start + n * interval - time.monotonic()))
    print(n)


if __name__ == "__main__":
    main()
