#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Summaries for the soak (tests/soak/soak.sh):

    report.py samples FILE   lines "SECONDS RSS_KB IN_USE", the last one after the load:
                             a table (a row per tenth of the run), then one line for
                             the shell: "RSS_START RSS_END Q2_MEDIAN Q4_MEDIAN DRIFT_PCT"
    report.py drops          `fwdctl -j stats` on stdin: drops by reason, summed over ports
    report.py tcp FILE       iperf3 --bidir -J: rates both ways and retransmits
"""
import json
import statistics
import sys
from collections import Counter


def samples(path):
    rows = [tuple(int(x) for x in line.split()) for line in open(path) if line.strip()]
    load, end = rows[:-1], rows[-1]
    q = max(1, len(load) // 4)
    q2 = statistics.median(r[1] for r in load[q:2 * q])
    q4 = statistics.median(r[1] for r in load[-q:])
    drift = 100.0 * (q4 - q2) / q2
    print("%8s %12s %12s" % ("t (s)", "RSS (kB)", "mbufs used"))
    for r in load[::max(1, len(load) // 10)] + [end]:
        print("%8d %12d %12d" % r)
    print("RSS: start %d kB, second-quarter median %d kB, last-quarter median %d kB (%+.2f%%), "
          "end %d kB" % (load[0][1], q2, q4, drift, end[1]))
    print("%d %d %d %d %.2f" % (load[0][1], end[1], q2, q4, drift))


def drops():
    c = Counter()
    for p in json.load(sys.stdin)["ports"]:
        for d in p.get("drop_reasons", []):
            c[d["name"]] += int(d.get("value", 0))
    print(" ".join("%s=%d" % kv for kv in sorted(c.items())) or "none")


def tcp(path):
    e = json.load(open(path))["end"]
    print("%.0f / %.0f Mbit/s, %d retransmits" % (
        e["sum_received"]["bits_per_second"] / 1e6,
        e["sum_received_bidir_reverse"]["bits_per_second"] / 1e6,
        e["sum_sent"]["retransmits"] + e["sum_sent_bidir_reverse"]["retransmits"]))


if __name__ == "__main__":
    {"samples": lambda: samples(sys.argv[2]), "drops": drops,
     "tcp": lambda: tcp(sys.argv[2])}[sys.argv[1]]()
