#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Many UDP flows at a steady rate, and how much of each got lost, for the
bond smoke tests (tests/smoke/bond_test.sh): the longest outage of any one
flow is the traffic a member's failure cost.

    bond_flows.py recv PORT SECS OUT.json     (exits on the sender's end mark)
    bond_flows.py send DST PORT FLOWS RATE SECS

The sender runs FLOWS flows (source ports 40000 + i: distinct 5-tuples for a
layer3+4 hash), each RATE datagrams a second, SECS seconds; a datagram
carries its flow, sequence number and the flow's rate. Then it sends an end
mark (flow 0xffff, a few times) with how many each flow sent. The receiver
writes {"flows": N, "sent": S, "received": R, "lost": S - R,
"max_gap_ms": the longest run of missing sequence numbers in any flow times
the flow's interval, "flows_seen": flows with anything received}.
"""
import json
import socket
import struct
import sys
import time

HDR = struct.Struct("!HIH")  # flow, sequence number, rate
END = 0xffff


def send(dst, port, flows, rate, secs):
    socks = []
    for i in range(flows):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("0.0.0.0", 40000 + i))
        s.connect((dst, port))
        socks.append(s)
    interval = 1.0 / rate
    n = int(secs * rate)
    start = time.monotonic()
    pad = b"b" * 64
    for seq in range(n):
        due = start + seq * interval
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        for i, s in enumerate(socks):
            try:
                s.send(HDR.pack(i, seq, rate) + pad)
            except OSError:
                pass  # no route for a moment: counted as lost by the receiver
    time.sleep(0.3)  # the last datagrams in flight before the end mark
    for _ in range(5):
        try:
            socks[0].send(HDR.pack(END, n, flows))
        except OSError:
            break  # the receiver has it and is gone (port unreachable)
        time.sleep(0.05)


def recv(port, secs, out):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(0.5)
    seen = {}  # flow -> set of sequence numbers
    rates = {}
    sent = None
    end = time.monotonic() + secs
    while time.monotonic() < end:
        try:
            data = s.recv(2048)
        except socket.timeout:
            continue
        if len(data) < HDR.size:
            continue
        flow, seq, rate = HDR.unpack_from(data)
        if flow == END:
            sent = (seq, rate)  # per flow, flows
            break
        seen.setdefault(flow, set()).add(seq)
        rates[flow] = rate
    per_flow, flows = sent if sent else (0, 0)
    gap_ms = 0.0
    received = 0
    for f in range(flows):
        got = seen.get(f, set())
        received += len(got)
        run = longest = 0
        for seq in range(per_flow):
            run = 0 if seq in got else run + 1
            longest = max(longest, run)
        gap_ms = max(gap_ms, longest * 1000.0 / rates.get(f, 1))
    res = {"flows": flows, "sent": per_flow * flows, "received": received,
           "lost": per_flow * flows - received, "max_gap_ms": round(gap_ms),
           "flows_seen": len(seen), "ended": sent is not None}
    with open(out, "w") as f:
        json.dump(res, f)


def main():
    if len(sys.argv) == 7 and sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
             float(sys.argv[6]))
    elif len(sys.argv) == 5 and sys.argv[1] == "recv":
        recv(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
