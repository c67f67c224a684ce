#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""make bench: fwd against dpdk-testpmd (io) and DPDK's l3fwd (LPM), one run.

    tests/bench/bench.py BUILD_DIR

Every program runs with lcore 0 as main/control and lcore 1 as its only
forwarding core, burst 32, 8191 mbufs, hugepages (--in-memory), net_pcap
(rx_pcap=..., infinite_rx=1) as the source and net_null (no-rx=1) as the
sink, on the same generated pcap. The programs of a group are started, then
paused (SIGSTOP); each round resumes one at a time, lets it warm up, counts
the sink's packets over BENCH_SECONDS and pauses it again, in an order that
rotates every round (A B C, B C A, ...). So noise on a loaded machine hits
every program alike, and ratios are taken between neighbours in time: a
ratio is the median over rounds of the per-round ratio, printed with a 90%
bootstrap interval of that median (how far the machine's noise leaves it
uncertain). Every round is a fresh start of the group (BENCH_STARTS spreads
the rounds over fewer): a process keeps the memory it was given for its
whole life, and that moves its rate for as long as it runs (testpmd against
one fwd build: 0.83 and 1.05 in two starts, tests/bench/README.md), so
rounds of one start would all carry that start's luck. Counters: testpmd and
l3fwd through DPDK telemetry (sink port opackets); fwd through `fwdctl -j
stats` (sink tx_packets), checked against the null PMD's own count (sink
xstats) and fwd's drop counters.

Parts (BENCH_ONLY=main,imix,ipv6,acl,l2,vlan,bond,burst,churn picks some):
  main   64 B: testpmd io, l3fwd lpm, l3fwd lpm linked statically (as
         fwd-daemon is: DPDK linked in), fwd xconnect, fwd l3 16 routes,
         the same 16 routes each over a 4-way ECMP group (every packet
         hashed to a member), fwd l3 with the 1M-route table loaded on top
  churn  on the 1M-route fwd: 10,000 route changes/s for 10 s through the
         RPC (build/bench/route_churn) while `fwdctl -j stats` is polled at
         10 Hz: the throughput dip (median of 100 ms windows against the
         quiet phases either side; the lowest window beside the quiet
         phases' own lowest) and the drop counters
  imix   the same programs (but 1M and static l3fwd) on IMIX traffic
  ipv6   62 B IPv6 UDP to 2001:200:0:1::/64: l3fwd lpm with its default
         IPv6 table (2001:200:0:N::/64 to port N), the same linked
         statically, fwd l3 routing IPv6 (the same 16 /64s via 4 gateways
         with static neighbours on the sink port)
  acl    64 B: fwd l3 16 routes with a 1,000-rule ACL on the source port's
         acl_in, the traffic matching only its last rule (benchlib.acl_config),
         beside the same without an ACL; on 2,048 flows, then on 64 k (more
         than the workers' ACL verdict caches hold); BENCH_FWD_ALT=PATH
         adds that daemon with the same ACL on both (before/after)
  l2     64 B: fwd's bridge beside Open vSwitch with DPDK (NORMAL), l2vlan.py
  vlan   fwd l3 16 routes tagged VLAN 100 in, VLAN 200 out, beside untagged
         (l2vlan.py)
  bond   fwd l3 16 routes out of a bond of two members both distributing
         (LACP with a partner daemon on CPU 0 over net_memif, hash l34),
         beside one port (net_null) and one net_memif port (bondbench.py)
  burst  fwd l3 16 routes at bursts 4..128, table and build/bench/burst.png
  flows  64 B to 2 k, 64 k and 1 M distinct destinations over the 1M-route
         table (BENCH_FLOW_COUNTS), fwd beside l3fwd (groups.py)
  scaling  Mpps at 1, 2, 4, ... workers, fwd beside l3fwd, table and
         build/bench/scaling.png; skipped on fewer than 3 CPUs unless
         BENCH_SCALING_FORCE=1 (groups.py)

Knobs: BENCH_ROUNDS (9), BENCH_STARTS (= rounds), BENCH_SECONDS (5),
BENCH_WARMUP (1), BENCH_SWEEP_ROUNDS (3), BENCH_CHURN_RATE (10000),
BENCH_CHURN_SECONDS (10), BENCH_FLOWS (2048), BENCH_HUGEPAGES (1; 0 runs
with --no-huge). Results: build/bench/results.json.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import groups  # noqa: E402
import bondbench  # noqa: E402
import l2vlan  # noqa: E402
from benchlib import log  # noqa: E402

ROUNDS = max(1, int(os.environ.get("BENCH_ROUNDS", "9")))
STARTS = min(ROUNDS, max(1, int(os.environ.get("BENCH_STARTS", str(ROUNDS)))))
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
WARMUP = float(os.environ.get("BENCH_WARMUP", "1"))
SWEEP_ROUNDS = max(1, int(os.environ.get("BENCH_SWEEP_ROUNDS", "3")))
BURSTS = [4, 8, 16, 32, 64, 128]
CHURN_RATE = int(os.environ.get("BENCH_CHURN_RATE", "10000"))
CHURN_SECONDS = float(os.environ.get("BENCH_CHURN_SECONDS", "10"))
POLL_HZ = 10
ONLY = os.environ.get("BENCH_ONLY",
                      "main,churn,imix,ipv6,acl,l2,vlan,bond,flows,scaling,burst").split(",")
GROUP_TAGS = ("-imix", "-v6", "-acl", "-l2", "-vlan", "-bond")   # the names' ends of every group's programs but main's
OTHER_GROUPS = groups.FLOWS_PREFIXES + ("fwd-w", "l3fwd-w", "fwd-b")   # groups.py's, the burst's


# ------------------------------------------------------------- measurement
def measure(prog):
    """Resume, warm up, count over SECONDS, pause. Returns one round's figures
    (with a hot source, the CPUs' distance before and after: xcpu_ns)."""
    gen = getattr(prog, "gen", None)
    before = gen.probe() if gen else None
    prog.resume()
    try:
        time.sleep(WARMUP)
        a = prog.sample()
        time.sleep(SECONDS)
        b = prog.sample()
    finally:
        prog.pause()
    dt = b.t - a.t
    tx = b.tx - a.tx
    return {
        "mpps": tx / dt / 1e6,
        "seconds": dt,
        "packets": tx,
        "drops": b.drops - a.drops,
        "drop_reasons": {k: v - a.reasons.get(k, 0) for k, v in b.reasons.items()
                         if v != a.reasons.get(k, 0)},
        "sink_count_diff": (b.sink - a.sink) - tx,   # sink PMD's count minus the program's
        "rx_minus_tx": (b.rx - a.rx) - tx,
        "xcpu_ns": xcpu_ns(before, gen.probe() if gen else None),
    }


def xcpu_ns(before, after):
    return max(before, after) if before is not None and after is not None else None


def alternate(progs, rounds, title, first=0, total=None):
    """Rounds first .. first + rounds - 1 (of total) over started programs."""
    runs = {p.name: [] for p in progs}
    for r in range(first, first + rounds):
        k = r % len(progs)
        line = []
        for prog in progs[k:] + progs[:k]:
            if not prog.alive():
                continue
            try:
                m = measure(prog)
            except (OSError, ValueError, KeyError, subprocess.SubprocessError) as e:
                log("  %s: sample failed: %s" % (prog.label, e))
                continue
            m["round"] = r
            runs[prog.name].append(m)
            line.append("%s %.2f" % (prog.name, m["mpps"]))
        log("  %s round %d/%d: %s" % (title, r + 1, total or rounds, ", ".join(line)))
    return runs


def alternate_starts(make, rounds, title, failed, last=None):
    """`rounds` rounds spread over STARTS starts (at most one a round) of the programs
    make() returns, fresh ones each time; last(progs), if given, runs on the
    final start's programs before they stop. Returns the rounds of each
    program by name, and its label."""
    starts = min(STARTS, rounds)
    runs, labels, done = {}, {}, 0
    for s in range(starts):
        n = (rounds - done) // (starts - s)
        log("  %s: start %d/%d" % (title, s + 1, starts))
        wanted = make()
        progs = bl.start_all(wanted)
        failed.update({q.name: q.error for q in wanted if q not in progs})
        try:
            for name, v in alternate(progs, n, title, done, rounds).items():
                runs.setdefault(name, []).extend(v)
            labels.update({q.name: q.label for q in progs})
            if last is not None and s == starts - 1:
                last(progs)
        finally:
            for prog in progs:
                prog.stop()
        done += n
    return runs, labels


def summary(runs):
    v = [m["mpps"] for m in runs]
    if not v:
        return None
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "rounds": v,
            "drops": sum(m["drops"] for m in runs),
            "drop_reasons": merge_reasons(runs),
            "sink_count_diff": sum(m["sink_count_diff"] for m in runs),
            "worst_round_diff": max((m["sink_count_diff"] for m in runs), key=abs),
            "packets": sum(m["packets"] for m in runs)}


def merge_reasons(runs):
    out = {}
    for m in runs:
        for k, v in m["drop_reasons"].items():
            out[k] = out.get(k, 0) + v
    return out


def round_ratios(num, den):
    """num/den of each round that measured both."""
    by_round = {b["round"]: b["mpps"] for b in den or []}
    return [a["mpps"] / by_round[a["round"]] for a in num or []
            if by_round.get(a["round"], 0) > 0]


def median_interval(v, level=0.90, draws=2000):
    """Percentile bootstrap interval of the median of v (fixed seed, so a
    report is reproducible from its rounds)."""
    rng = random.Random(1)
    meds = sorted(statistics.median(rng.choices(v, k=len(v))) for _ in range(draws))
    lo = int((1 - level) / 2 * draws)
    return meds[lo], meds[draws - 1 - lo]


# ------------------------------------------------------------------- parts
def group(p, pcap, tag, with_full, only_full):
    progs = [bl.Testpmd(p, "testpmd" + tag, "testpmd io", pcap),
             bl.L3fwd(p, "l3fwd" + tag, "l3fwd lpm", pcap),
             bl.Fwd(p, "fwd-xc" + tag, "fwd xconnect", pcap, "xconnect"),
             bl.Fwd(p, "fwd-16" + tag, "fwd l3 16 routes", pcap, "l3")]
    if with_full:   # the same routes, each over a 4-way ECMP group
        progs.append(bl.Fwd(p, "fwd-ecmp" + tag, "fwd l3 16 routes, 4-way ECMP", pcap, "l3",
                            ecmp=True))
    if only_full:
        progs = []
    elif with_full:   # the 64 B group: l3fwd linked as fwd is (DPDK linked in) too
        progs.insert(2, bl.L3fwd(p, "l3fwd-st" + tag, "l3fwd lpm, static", pcap, static=True))
    if with_full:
        progs.append(bl.Fwd(p, "fwd-1m" + tag, "fwd l3 1M routes", pcap, "l3", full_table=True))
    return progs


def run_group(p, results, key, pcap, tag, with_full, churn, only_full=False):
    log("\n== %s" % key)

    def last(progs):
        full = [q for q in progs if q.name.startswith("fwd-1m")]
        if churn and full:
            results["churn"] = hitless(p, full[0])

    runs, labels = alternate_starts(lambda: group(p, pcap, tag, with_full, only_full),
                                    ROUNDS if not only_full else 1, key, results["failed"],
                                    last=last)
    results[key] = {name: dict(label=labels[name], **(summary(v) or {}))
                    for name, v in runs.items()}
    results[key + "_runs"] = runs


def group_v6(p):
    """IPv6: l3fwd in LPM mode (the reference), the same linked statically,
    and fwd routing IPv6."""
    pcap = p.pcap62v6
    return [bl.L3fwd(p, "l3fwd-v6", "l3fwd lpm", pcap, ipv6=True),
            bl.L3fwd(p, "l3fwd-st-v6", "l3fwd lpm, static", pcap, static=True, ipv6=True),
            bl.Fwd(p, "fwd-16-v6", "fwd l3 16 routes", pcap, "l3", ipv6=True)]


def run_group_v6(p, results):
    log("\n== ipv6")
    runs, labels = alternate_starts(lambda: group_v6(p), ROUNDS, "ipv6", results["failed"])
    results["ipv6"] = {name: dict(label=labels[name], **(summary(v) or {}))
                       for name, v in runs.items()}
    results["ipv6_runs"] = runs


def group_acl(p):
    """Routing with and without a 1,000-rule acl_in (the packets match its
    last rule), on the 2,048 flows of the other groups (the workers' ACL
    verdict caches hold them all) and on 64 k flows (eight times what a
    cache holds: nearly every packet is classified)."""
    flows = bl.flows_pcaps(p, bl.ACL_NEW_FLOWS)[0]
    return [bl.Fwd(p, "fwd-16-acl", "fwd l3 16 routes", p.pcap64, "l3"),
            bl.Fwd(p, "fwd-1k-acl", "fwd l3, 1,000-rule acl_in", p.pcap64, "l3",
                   acl_rules=1000),
            bl.Fwd(p, "fwd-16f-acl", "fwd l3 16 routes, 64k flows", flows, "l3",
                   extra_mbufs=bl.ACL_NEW_FLOWS),
            bl.Fwd(p, "fwd-1kf-acl", "acl_in, 64k flows", flows, "l3", acl_rules=1000,
                   extra_mbufs=bl.ACL_NEW_FLOWS)] + ([    # BENCH_FWD_ALT: before/after
        bl.Fwd(p, "fwdalt-1k-acl", "ALT acl_in", p.pcap64, "l3", acl_rules=1000,
               daemon=groups.FWD_ALT),
        bl.Fwd(p, "fwdalt-1kf-acl", "ALT acl_in, 64k flows", flows, "l3", acl_rules=1000,
               extra_mbufs=bl.ACL_NEW_FLOWS, daemon=groups.FWD_ALT)] if groups.FWD_ALT else [])


def run_group_acl(p, results):
    log("\n== acl")
    runs, labels = alternate_starts(lambda: group_acl(p), ROUNDS, "acl", results["failed"])
    results["acl"] = {name: dict(label=labels[name], **(summary(v) or {}))
                      for name, v in runs.items()}
    results["acl_runs"] = runs


def run_burst(p, results):
    log("\n== burst sweep: fwd l3 16 routes")
    runs, _ = alternate_starts(
        lambda: [bl.Fwd(p, "fwd-b%d" % b, "fwd burst %d" % b, p.pcap64, "l3", burst=b)
                 for b in BURSTS], SWEEP_ROUNDS, "burst", results["failed"])
    results["burst"] = {str(b): summary(runs["fwd-b%d" % b]) for b in BURSTS
                        if runs.get("fwd-b%d" % b)}
    plot_burst(p, results["burst"])


# ------------------------------------------------------------------ churn
def poll(prog, seconds, phase, samples):
    """`fwdctl -j stats` every 1/POLL_HZ s, each sample tagged with phase."""
    t0 = time.monotonic()
    n = int(seconds * POLL_HZ)
    for i in range(n):
        delay = t0 + i / POLL_HZ - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            samples.append((phase, prog.sample()))
        except (OSError, ValueError, KeyError, subprocess.SubprocessError) as e:
            log("  stats poll failed: %s" % e)


def churn_cmd(p, prog, mode):
    return [p.churn, "-s", prog.sock, "-g", ",".join(bl.GATEWAYS), "-t", p.traffic_routes,
            "-r", str(CHURN_RATE), "-d", str(CHURN_SECONDS), "-m", mode]


def run_phase(prog, name, seconds, cmd, samples):
    """Poll through one phase while cmd (if any) runs; returns cmd's JSON line."""
    proc = None
    if cmd:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    try:
        poll(prog, seconds, name, samples)
        if proc is None:
            return None
        if "route_churn" not in cmd[0]:
            proc.kill()
        out, err = proc.communicate(timeout=120)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
    if "route_churn" not in cmd[0]:
        return None
    try:
        res = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        res = {"error": (err or out).strip()}
    res["exit"] = proc.returncode
    return res


def hitless(p, prog):
    """Route churn against the 1M-route fwd, with two controls: the same rate
    of read-only RPCs (control-plane load without table changes) and a busy
    loop on the control CPU (what that CPU's load alone costs the forwarding
    core on this machine)."""
    log("\n== churn: %d route changes/s for %gs on %s, stats at %d Hz" %
        (CHURN_RATE, CHURN_SECONDS, prog.label, POLL_HZ))
    busy = ["taskset", "-c", str(bl.CONTROL_CPU), "sh", "-c", "while :; do :; done"]
    phases = [("quiet1", 2, None), ("churn", CHURN_SECONDS, churn_cmd(p, prog, "change")),
              ("quiet2", 2, None), ("rpc_get", CHURN_SECONDS, churn_cmd(p, prog, "get")),
              ("quiet3", 2, None), ("cpu0_busy", 3, busy), ("quiet4", 2, None)]
    samples, tools = [], {}
    prog.resume()
    try:
        time.sleep(WARMUP)
        for name, secs, cmd in phases:
            tools[name] = run_phase(prog, name, secs, cmd, samples)
    finally:
        prog.pause()
    return churn_figures(samples, tools, prog.burst)


def churn_figures(samples, tools, burst):
    """Each active phase against the quiet phases on either side of it, so a
    slow drift of the machine's speed does not count as a dip."""
    windows, order = [], []
    for (pa, a), (phase, b) in zip(samples, samples[1:]):
        if pa == phase and b.t > a.t:   # windows within one phase only
            windows.append((phase, (b.tx - a.tx) / (b.t - a.t) / 1e6))
        if phase not in order:
            order.append(phase)
    by_phase = {ph: [r for p2, r in windows if p2 == ph] for ph in order}
    phases = {}
    for i, ph in enumerate(order):
        v = by_phase[ph]
        if not v:
            continue
        if ph.startswith("quiet"):
            ref = v
        else:
            ref = by_phase.get(order[i - 1], []) + (by_phase.get(order[i + 1], [])
                                                     if i + 1 < len(order) else [])
        base = statistics.median(ref) if ref else 0
        phases[ph] = {"median_mpps": statistics.median(v), "min_mpps": min(v),
                      "baseline_mpps": base,
                      "dip": 1 - min(v) / base if base else None,
                      "median_dip": 1 - statistics.median(v) / base if base else None}
    first, last = samples[0][1], samples[-1][1]
    # Packets received and neither sent nor counted as dropped: in flight,
    # plus the skew of reading rx before tx while the worker runs. Both are
    # steady; loss would make it grow. So compare it after the churn with
    # before, and its spread before the churn is the resolution.
    left = {ph: [s.rx - s.tx - s.drops for p2, s in samples if p2 == ph]
            for ph in ("quiet1", "quiet2")}
    sink = {ph: [s.sink - s.tx for p2, s in samples if p2 == ph] for ph in ("quiet1", "quiet2")}
    quiet_dips = [v["dip"] for ph, v in phases.items() if ph.startswith("quiet")]
    return {
        "tool": tools.get("churn") or {},
        "control_tool": tools.get("rpc_get") or {},
        "phases": phases,
        "windows_mpps": windows,
        "dip": phases.get("churn", {}).get("median_dip"),
        "lowest_window_dip": phases.get("churn", {}).get("dip"),
        "noise_dip": max(quiet_dips) if quiet_dips else None,
        "polls": len(samples),
        "rx": last.rx - first.rx, "tx": last.tx - first.tx, "drops": last.drops - first.drops,
        "drop_reasons": {k: v - first.reasons.get(k, 0) for k, v in last.reasons.items()
                         if v != first.reasons.get(k, 0)},
        "uncounted": growth(left),
        "sink_uncounted": growth(sink),
        "uncounted_resolution": max(4 * burst, spread(left["quiet1"]), spread(sink["quiet1"])),
    }


def growth(series):
    if not series["quiet1"] or not series["quiet2"]:
        return None
    return statistics.median(series["quiet2"]) - statistics.median(series["quiet1"])


def spread(v):
    return max(v) - min(v) if v else 0


# ----------------------------------------------------------------- report
def fmt_mpps(s):
    if not s or "median" not in s:
        return "%12s   %-15s" % ("n/a", "")
    return "%12.2f   %-15s" % (s["median"], "%.2f-%.2f" % (s["min"], s["max"]))


def ratios(results, key, tag):
    """Each ratio's median over rounds, and its bootstrap interval."""
    runs = results.get(key + "_runs", {})
    r, ci = {}, {}
    pairs = [("fwd/l3fwd", "fwd-16", "l3fwd"), ("fwd-xc/testpmd", "fwd-xc", "testpmd"),
             ("1M/16", "fwd-1m", "fwd-16"), ("l3fwd/testpmd", "l3fwd", "testpmd"),
             ("fwd/l3fwd-static", "fwd-16", "l3fwd-st"),
             ("l3fwd-static/l3fwd", "l3fwd-st", "l3fwd"),
             ("ecmp/16", "fwd-ecmp", "fwd-16"), ("ecmp/l3fwd", "fwd-ecmp", "l3fwd"),
             ("acl1k/none", "fwd-1k", "fwd-16"), ("acl1k/none 64k", "fwd-1kf", "fwd-16f"),
             ("alt/none", "fwdalt-1k", "fwd-16"), ("alt/none 64k", "fwdalt-1kf", "fwd-16f")]
    for name, a, b in pairs:
        v = round_ratios(runs.get(a + tag), runs.get(b + tag))
        if v:
            r[name] = statistics.median(v)
            ci[name] = median_interval(v)
    return r, ci


def print_group(results, key, tag, title):
    if key not in results:
        return
    rat, ci = ratios(results, key, tag)
    results.setdefault("ratios", {})[key] = rat
    results.setdefault("ratio_intervals", {})[key] = ci
    show = {"fwd-xc": ["fwd-xc/testpmd"], "fwd-16": ["fwd/l3fwd", "fwd/l3fwd-static"],
            "fwd-1m": ["1M/16"], "l3fwd-st": ["l3fwd-static/l3fwd"],
            "fwd-ecmp": ["ecmp/16", "ecmp/l3fwd"], "fwd-1k": ["acl1k/none"],
            "fwd-1kf": ["acl1k/none 64k"],
            "fwdalt-1k": ["alt/none"], "fwdalt-1kf": ["alt/none 64k"]}
    log("\n%-24s %12s   %-15s %s" % (title, "median Mpps", "min-max",
                                       "ratio: per-round median (90% interval)"))
    for name, s in results[key].items():
        base = name[:-len(tag)] if tag else name
        rtexts = ["%s %.3f (%.3f-%.3f)" % ((rname, rat[rname]) + ci[rname])
                  for rname in show.get(base, []) if rname in rat] or [""]
        log("%-24s %s %s" % (s.get("label", name), fmt_mpps(s), rtexts[0]))
        for rtext in rtexts[1:]:
            log("%-24s %s %s" % ("", " " * 30, rtext))
        # the daemon reads the sink's count and its own a few microseconds
        # apart while forwarding: a round's two samples may differ by that
        # much (1024 packets: 17 us at 60 Mpps)
        if s.get("drops") or abs(s.get("worst_round_diff", 0)) > 1024:
            log("%-24s   ! drops %d %s, sink count - program count %d (worst round %d)" %
                ("", s["drops"], s.get("drop_reasons", {}), s.get("sink_count_diff", 0),
                 s.get("worst_round_diff", 0)))
    for name, err in results["failed"].items():
        if name.endswith(tag) if tag else not (name.endswith(GROUP_TAGS) or
                                                name.startswith(OTHER_GROUPS)):
            log("%-24s failed: %s" % (name, err))


def print_burst(results):
    if "burst" not in results:
        return
    log("\n%-24s %12s   %-15s" % ("fwd l3 16 routes, burst", "median Mpps", "min-max"))
    for b, s in results["burst"].items():
        log("%-24s %s" % (b, fmt_mpps(s)))


def print_churn(results):
    c = results.get("churn")
    if not c:
        return
    log("\nroute churn on fwd l3 1M routes, `fwdctl -j stats` at %d Hz (%d polls), "
        "100 ms windows" % (POLL_HZ, c["polls"]))
    for key, what in (("tool", "route changes"), ("control_tool", "route gets (control)")):
        t = c[key]
        if "error" in t or not t:
            log("  route_churn (%s): failed: %s" % (what, t.get("error", "no output")))
            continue
        log("  %-22s %d in %.1f s = %d/s (target %d/s), %d errors, latency ms p50 %.3f "
            "p99 %.3f max %.1f" % (what + ":", t["ops"], t["seconds"], t["rate"], CHURN_RATE,
                                   t["errors"], t["latency_ms"]["p50"], t["latency_ms"]["p99"],
                                   t["latency_ms"]["max"]))
    log("  %-36s %8s %8s %10s %7s %11s" % ("phase", "median", "lowest", "baseline", "dip",
                                             "median dip"))
    names = {"churn": "route churn", "rpc_get": "same rate of route gets (control)",
             "cpu0_busy": "busy loop on CPU %d (control)" % bl.CONTROL_CPU}
    for ph, v in c["phases"].items():
        log("  %-36s %8.2f %8.2f %10.2f %6.1f%% %10.1f%%" % (
            names.get(ph, ph), v["median_mpps"], v["min_mpps"], v["baseline_mpps"],
            100 * v["dip"], 100 * v["median_dip"]))
    log("  (Mpps over 100 ms windows; baseline = median of the quiet phases either side;\n"
        "  median dip = 1 - median / baseline, the throughput dip; dip = 1 - lowest /\n"
        "  baseline, which a quiet phase has too: the machine's own noise)")
    log("  packets: rx %d, tx %d, drops %d %s" %
        (c["rx"], c["tx"], c["drops"], c["drop_reasons"]))
    if c["uncounted"] is not None:
        log("  uncounted (rx - tx - drops, after vs before churn): %+d; sink PMD count - fwd tx "
            "count: %+d (resolution %d packets)" %
            (c["uncounted"], c["sink_uncounted"], c["uncounted_resolution"]))


def interval_note(ci, key):
    return "90%% interval %.3f-%.3f" % tuple(ci[key]) if key in ci else ""


def targets(results):
    c = results.get("churn") or {}

    def ratio_at_least(name, key, floor, group="main"):
        r = results.get("ratios", {}).get(group, {})
        ci = results.get("ratio_intervals", {}).get(group, {})
        return (name, r.get(key), lambda v: v >= floor, interval_note(ci, key))

    checks = [
        ratio_at_least("fwd l3 16 routes >= 1.0x l3fwd lpm", "fwd/l3fwd", 1.0),
        ratio_at_least("fwd l3 16 routes >= 1.0x l3fwd static", "fwd/l3fwd-static", 1.0),
        ratio_at_least("fwd xconnect >= 1.0x testpmd io", "fwd-xc/testpmd", 1.0),
        ratio_at_least("fwd l3 1M routes >= 0.9x 16 routes", "1M/16", 0.9),
        ("route churn median dip < 5%", c.get("dip"), lambda v: v < 0.05,
         "lowest window %.1f%% below; quiet phases' own lowest: up to %.1f%%" %
         (100 * c["lowest_window_dip"], 100 * c["noise_dip"])
         if c.get("noise_dip") is not None and c.get("lowest_window_dip") is not None else ""),
        ("route churn: no uncounted loss",
         None if c.get("uncounted") is None else max(abs(c["uncounted"]),
                                                     abs(c["sink_uncounted"])),
         lambda v: v <= c["uncounted_resolution"], ""),
        ratio_at_least("fwd l3 IPv6 >= 1.0x l3fwd lpm IPv6", "fwd/l3fwd", 1.0, "ipv6"),
        ratio_at_least("1,000-rule acl_in >= 0.8x no ACL", "acl1k/none", 0.8, "acl"),
    ] + l2vlan.targets(ratio_at_least) + bondbench.targets(ratio_at_least)
    if "flows" in results:
        for name, key, floor in groups.flows_targets(results)[0]:
            checks.append(ratio_at_least(name, key, floor, "flows"))
    out = {}
    log("\ntargets")
    for name, v, ok, note in checks:
        if v is None:
            log("  %-40s %-8s n/a" % (name, ""))
            continue
        out[name] = {"value": v, "pass": bool(ok(v))}
        log("  %-40s %-8.3f %s  %s" % (name, v, "PASS" if ok(v) else "FAIL", note))
    log("  (application instructions per packet <= l3fwd: make bench-callgrind)")
    results["targets"] = out


def plot_burst(p, burst):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [int(b) for b, s in burst.items() if s]
    med = [burst[str(b)]["median"] for b in xs]
    lo = [m - burst[str(b)]["min"] for b, m in zip(xs, med)]
    hi = [burst[str(b)]["max"] - m for b, m in zip(xs, med)]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(xs, med, yerr=[lo, hi], marker="o", capsize=4)
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(b) for b in xs])
    ax.set_xlabel("burst (packets per rx/tx call)")
    ax.set_ylabel("Mpps (median, min-max)")
    ax.set_title("fwd l3, 16 routes, 64 B, one core")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(p.out, "burst.png"), dpi=100)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if os.geteuid() != 0:
        bl.die("run as root (hugepages)")
    p = bl.Paths(sys.argv[1])
    bl.install_signal_handlers()
    bl.reap_leftovers(p)
    cpus = len(os.sched_getaffinity(0))
    bl.pin_to_control_cpu()
    bl.prepare_inputs(p)
    results = {"config": {"rounds": ROUNDS, "starts": STARTS, "seconds": SECONDS, "warmup": WARMUP,
                          "sweep_rounds": SWEEP_ROUNDS, "flows": bl.FLOWS, "burst": 32,
                          "mbufs": bl.MBUFS, "hugepages": bl.HUGEPAGES, "lcores": bl.LCORES,
                          "full_routes": bl.FULL_ROUTES, "churn_rate": CHURN_RATE,
                          "churn_seconds": CHURN_SECONDS},
               "failed": {}}
    huge = bl.Hugepages(p)
    t0 = time.monotonic()
    try:
        # a group keeps all its programs alive (paused): the 64 B group's 7
        # the most (the flows and scaling groups raise it for theirs)
        huge.up(groups.needed_pages(group(p, p.pcap64, "", True, False)))
        if "main" in ONLY or "churn" in ONLY:
            run_group(p, results, "main", p.pcap64, "", True, "churn" in ONLY,
                      only_full="main" not in ONLY)
        if "imix" in ONLY:
            run_group(p, results, "imix", p.pcap_imix, "-imix", False, False)
        if "ipv6" in ONLY:
            run_group_v6(p, results)
        if "acl" in ONLY:
            run_group_acl(p, results)
        if "l2" in ONLY:
            l2vlan.run_l2(p, results, sys.modules[__name__])
        if "vlan" in ONLY:
            l2vlan.run_vlan(p, results, sys.modules[__name__])
        if "bond" in ONLY:
            bondbench.run_bond(p, results, sys.modules[__name__])
        if "flows" in ONLY:
            groups.run_flows(p, results, huge, sys.modules[__name__])
        if "scaling" in ONLY:
            groups.run_scaling(p, results, huge, sys.modules[__name__], cpus)
        if "burst" in ONLY:
            run_burst(p, results)
    finally:
        bl.cleanup_all()
        huge.down()
    log("\n== results (%d rounds of %gs per program over %d starts, %d flows, burst 32, "
        "lcore 1; %.0f s)" % (ROUNDS, SECONDS, STARTS, bl.FLOWS, time.monotonic() - t0))
    print_group(results, "main", "", "64 B")
    print_group(results, "imix", "-imix", "IMIX 7:4:1")
    print_group(results, "ipv6", "-v6", "IPv6 62 B")
    print_group(results, "acl", "-acl", "ACL 64 B")
    l2vlan.print_groups(results, sys.modules[__name__])
    bondbench.print_group(results, sys.modules[__name__])
    groups.print_flows(results, sys.modules[__name__])
    groups.print_scaling(p, results, sys.modules[__name__])
    print_burst(results)
    print_churn(results)
    targets(results)
    with open(os.path.join(p.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    log("\nwrote %s%s" % (os.path.join(p.out, "results.json"),
                          " and burst.png" if "burst" in results else ""))


if __name__ == "__main__":
    main()
