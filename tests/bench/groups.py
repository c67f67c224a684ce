# SPDX-License-Identifier: BSD-3-Clause
"""make bench's flows and scaling groups (bench.py runs them; h is bench.py
itself, for its rounds and statistics).

flows    64 B routing on fwd l3 with the 1M-route table loaded, to 2 k, 64 k
         and 1 M distinct destinations (BENCH_FLOW_COUNTS), each a host in a
         route of its own (gen_flows.py), beside l3fwd lpm on the same pcap,
         from two sources (BENCH_FLOW_SOURCES, "hot,pcap"):
         hot   flowgen (flowgen.c) replays the pcap into a net_memif ring on
               CPU 0, the program reads it as memif client: each frame is
               in the cache when it arrives, as a NIC with DDIO delivers it,
               so what the program misses is its own (FIB, next hops).
               testpmd io on the same source says what the source gives.
               The targets (1M >= 0.8x 2k, >= 1.0x l3fwd) are taken here.
               BENCH_FWD_ALT=PATH runs another fwd-daemon beside fwd (A/B).
         pcap  net_pcap infinite_rx, as everywhere else: it keeps every
               packet of its pcap in an mbuf and copies it out on each
               receive, so with 1M packets that copy misses the caches as
               well, in both programs alike. Each program gets that many
               mbufs more (l3fwd: FWD_BENCH_EXTRA_MBUFS, l3fwd.patch) and
               the memory for them.
         l3fwd keeps its 16 covering routes: every route of the table is /24 or shorter, so a lookup is
         one read of a 2^24-entry tbl24 (64 MiB) in both programs, at an
         index set by the destination whatever the routes; and rte_lpm
         loads a million routes too slowly to start it each round (its
         rule_add scans the rules of the prefix's length: about 4,000
         routes/s at 250,000 on the development VM).
scaling  Mpps at 1, 2, 4, ... workers (up to the CPUs but CPU 0, at most 16):
         the 2048 flows dealt over one pcap per worker, one rx queue each
         (rx_pcap given once per queue), fwd l3 16 routes and l3fwd lpm
         with lcores 1..N on CPUs 1..N. On a machine with fewer than 3 CPUs
         it says so and skips; BENCH_SCALING_FORCE=1 runs it anyway with 1
         and 2 workers on CPU 1 (lcores 0@0,1@1,2@1), to show that the
         machinery works: those figures mean nothing. Table and
         build/bench/scaling.png.
"""
import os
import statistics

import benchlib as bl
from benchlib import log

FLOW_COUNTS = [int(x) for x in os.environ.get("BENCH_FLOW_COUNTS",
                                              "2048,65536,1000000").split(",")]
FLOW_SOURCES = [x for x in os.environ.get("BENCH_FLOW_SOURCES", "hot,pcap").split(",") if x]
if set(FLOW_SOURCES) - {"hot", "pcap"} or not FLOW_SOURCES:
    raise SystemExit("bench: BENCH_FLOW_SOURCES takes hot and/or pcap, not %r" %
                     os.environ.get("BENCH_FLOW_SOURCES"))
FLOWS_PREFIXES = ("fwd-d", "l3fwd-d", "fwd-h", "l3fwd-h", "testpmd-h", "fwdalt-")
XCPU_FACTOR = 2.0   # near_rounds()
# another fwd-daemon binary to run beside fwd in the flows group (an A/B of a change)
FWD_ALT = os.environ.get("BENCH_FWD_ALT")
SCALING_FORCE = os.environ.get("BENCH_SCALING_FORCE", "0") == "1"
MAX_WORKERS = 16          # rx_queues' limit in fwd.yaml


def short(n):
    return "%dM" % (n // 1000000) if n >= 1000000 and n % 1000000 == 0 else \
        "%dk" % (n // 1024) if n % 1024 == 0 else str(n)


def needed_pages(progs):
    """2 MiB pages for programs that all stay alive (paused), with room for
    what they allocate beyond -m (EAL grows its heap on demand)."""
    return sum(q.memory_mb + (bl.HotSource.MEMORY_MB if q.gen else 0)
               for q in progs) * 5 // 8 + 256


# ------------------------------------------------------------------ flows
# name tag, label, ratio-key suffix of each source
SOURCES = {"pcap": ("d", "net_pcap", ""), "hot": ("h", "hot", " hot")}


def flows_programs(p):
    progs = []
    for n in FLOW_COUNTS:
        pcap = bl.flows_pcaps(p, n)
        for src in FLOW_SOURCES:
            tag, what, _ = SOURCES[src]
            hot = src == "hot"
            extra = 0 if hot else n     # net_pcap keeps every frame in an mbuf
            s = short(n)
            progs += [bl.Fwd(p, "fwd-%s%s" % (tag, s), "fwd 1M routes, %s dst, %s" % (s, what),
                             pcap, "l3", full_table=True, extra_mbufs=extra, hot=hot),
                      bl.L3fwd(p, "l3fwd-%s%s" % (tag, s), "l3fwd lpm, %s dst, %s" % (s, what),
                               pcap, extra_mbufs=extra, hot=hot)]
            if FWD_ALT:
                progs.append(bl.Fwd(p, "fwdalt-%s%s" % (tag, s),
                                    "fwd ALT 1M routes, %s dst, %s" % (s, what), pcap, "l3",
                                    full_table=True, extra_mbufs=extra, hot=hot, daemon=FWD_ALT))
            if hot:   # what the source itself gives: the ceiling
                progs.append(bl.Testpmd(p, "testpmd-%s%s" % (tag, s),
                                        "testpmd io, %s dst, %s" % (s, what), pcap, hot=True))
    return progs


def run_flows(p, results, huge, h):
    log("\n== flows: 64 B to %s distinct destinations, from %s" %
        (", ".join(short(n) for n in FLOW_COUNTS), " and ".join(FLOW_SOURCES)))
    huge.up(needed_pages(flows_programs(p)))
    runs, labels = h.alternate_starts(lambda: flows_programs(p), h.ROUNDS, "flows",
                                      results["failed"])
    results["flows_runs_all"] = runs
    runs = near_rounds(runs, results)
    results["flows"] = {name: dict(label=labels[name], **(h.summary(v) or {}))
                        for name, v in runs.items()}
    results["flows_runs"] = runs


def near_rounds(runs, results):
    """The hot source's rounds taken while the host kept the source's CPU
    and the program's near each other: a round trip between them (xcpu.c,
    before and after the round) at most XCPU_FACTOR times the run's
    fastest. Far apart, every frame's copy from one to the other costs
    several times more (testpmd io alone: 23 Mpps near, 6 far on the
    development VM) and every program runs at the source's pace, which
    would pull every ratio towards 1."""
    probes = [m["xcpu_ns"] for v in runs.values() for m in v if m.get("xcpu_ns")]
    if not probes:
        return runs
    limit = XCPU_FACTOR * min(probes)
    out, dropped = {}, {}
    for name, v in runs.items():
        hot = [m for m in v if m.get("xcpu_ns") is not None]
        if not hot:
            out[name] = v
            continue
        out[name] = [m for m in hot if m["xcpu_ns"] <= limit]
        dropped[name] = len(v) - len(out[name])
    results["flows_xcpu"] = {"fastest_ns": min(probes), "slowest_ns": max(probes),
                             "limit_ns": limit, "dropped": dropped}
    return out


def flows_ratios(results, h):
    runs = results.get("flows_runs", {})
    base = short(FLOW_COUNTS[0])
    r, ci = {}, {}
    for src in FLOW_SOURCES:
        tag, _, sfx = SOURCES[src]
        for n in FLOW_COUNTS:
            s = short(n)
            pairs = [("fwd/l3fwd %s%s" % (s, sfx), "fwd-%s%s" % (tag, s), "l3fwd-%s%s" % (tag, s)),
                     ("ALT/fwd %s%s" % (s, sfx), "fwdalt-%s%s" % (tag, s), "fwd-%s%s" % (tag, s))]
            if src == "hot":
                pairs += [("fwd/testpmd %s%s" % (s, sfx), "fwd-%s%s" % (tag, s),
                           "testpmd-%s%s" % (tag, s))]
            if s != base:
                pairs += [("fwd %s/%s%s" % (s, base, sfx), "fwd-%s%s" % (tag, s),
                           "fwd-%s%s" % (tag, base)),
                          ("l3fwd %s/%s%s" % (s, base, sfx), "l3fwd-%s%s" % (tag, s),
                           "l3fwd-%s%s" % (tag, base))]
            for name, a, b in pairs:
                v = h.round_ratios(runs.get(a), runs.get(b))
                if v:
                    r[name] = statistics.median(v)
                    ci[name] = h.median_interval(v)
    results.setdefault("ratios", {})["flows"] = r
    results.setdefault("ratio_intervals", {})["flows"] = ci
    return r, ci


def print_xcpu(results):
    x = results.get("flows_xcpu")
    if not x:
        return
    n = sum(len(v) for k, v in results.get("flows_runs_all", {}).items() if k in x["dropped"])
    log("hot source: CPU %d <-> %s round trip %.0f-%.0f ns; %d of %d rounds kept (<= %.0f ns)" %
        (bl.CONTROL_CPU, bl.FORWARDING_LCORE, x["fastest_ns"], x["slowest_ns"],
         n - sum(x["dropped"].values()), n, x["limit_ns"]))


def flows_keys(name, base):
    """The ratio keys printed beside program `name` (PROGRAM-TAGCOUNT)."""
    prog, rest = name.rsplit("-", 1)
    tag, d = rest[0], rest[1:]
    sfx = next(v[2] for v in SOURCES.values() if v[0] == tag)
    if prog == "fwd":
        keys = ["fwd/l3fwd %s%s" % (d, sfx)]
        keys += ["fwd/testpmd %s%s" % (d, sfx)] if sfx else []
        return keys + (["fwd %s/%s%s" % (d, base, sfx)] if d != base else [])
    if prog == "fwdalt":
        return ["ALT/fwd %s%s" % (d, sfx)]
    if prog == "l3fwd" and d != base:
        return ["l3fwd %s/%s%s" % (d, base, sfx)]
    return []


def print_flows(results, h):
    if "flows" not in results:
        return
    r, ci = flows_ratios(results, h)
    base = short(FLOW_COUNTS[0])
    log("\n%-32s %12s   %-15s %s" % ("64 B, distinct destinations", "median Mpps", "min-max",
                                       "ratio: per-round median (90% interval)"))
    for name, s in results["flows"].items():
        texts = ["%s %.3f (%.3f-%.3f)" % ((k, r[k]) + ci[k])
                 for k in flows_keys(name, base) if k in r] or [""]
        log("%-32s %s %s" % (s.get("label", name), h.fmt_mpps(s), texts[0]))
        for t in texts[1:]:
            log("%-32s %s %s" % ("", " " * 30, t))
        if s.get("drops"):
            log("%-32s   ! drops %d %s" % ("", s["drops"], s.get("drop_reasons", {})))
    print_xcpu(results)
    for name, err in results["failed"].items():
        if name.startswith(FLOWS_PREFIXES):
            log("%-32s failed: %s" % (name, err))


def flows_targets(results):
    """(name, value, floor) of the flows group's targets: on the hot source
    when it ran (a NIC's frames arrive in the cache; net_pcap's do not)."""
    r = results.get("ratios", {}).get("flows", {})
    ci = results.get("ratio_intervals", {}).get("flows", {})
    big, base = short(FLOW_COUNTS[-1]), short(FLOW_COUNTS[0])
    src = "hot" if "hot" in FLOW_SOURCES else FLOW_SOURCES[0]
    sfx = SOURCES[src][2]
    return [("fwd %s dst >= 0.8x %s dst%s" % (big, base, sfx),
             "fwd %s/%s%s" % (big, base, sfx), 0.8),
            ("fwd %s dst >= 1.0x l3fwd%s" % (big, sfx), "fwd/l3fwd %s%s" % (big, sfx), 1.0)], r, ci


# ---------------------------------------------------------------- scaling
def scaling_plan(cpus):
    """(worker counts, shared_cpu), or None when the machine cannot."""
    top = min(cpus - 1, MAX_WORKERS)
    if top >= 2:
        ws, n = [], 1
        while n <= top:
            ws.append(n)
            n *= 2
        return ws, False
    if SCALING_FORCE:
        return [1, 2], True
    return None


def scaling_programs(p, ws, shared):
    progs = []
    for n in ws:
        pcaps = bl.flows_pcaps(p, bl.FLOWS, n)
        progs += [bl.Fwd(p, "fwd-w%d" % n, "fwd l3 16 routes, %d workers" % n, pcaps, "l3",
                         workers=n, shared_cpu=shared),
                  bl.L3fwd(p, "l3fwd-w%d" % n, "l3fwd lpm, %d workers" % n, pcaps, workers=n,
                           shared_cpu=shared)]
    return progs


def run_scaling(p, results, huge, h, cpus):
    plan = scaling_plan(cpus)
    if plan is None:
        log("\n== scaling: skipped: %d CPUs here, it needs 3 or more (CPU 0 for control, one "
            "per worker); BENCH_SCALING_FORCE=1 runs it on shared CPUs" % cpus)
        results["scaling"] = {"skipped": "%d CPUs" % cpus}
        return
    ws, shared = plan
    log("\n== scaling: fwd and l3fwd at %s workers%s" % (
        ", ".join(map(str, ws)),
        ", ALL ON CPU 1 (BENCH_SCALING_FORCE): the figures mean nothing" if shared else ""))
    huge.up(needed_pages(scaling_programs(p, ws, shared)))
    runs, labels = h.alternate_starts(lambda: scaling_programs(p, ws, shared), h.ROUNDS,
                                      "scaling", results["failed"])
    results["scaling"] = {"workers": ws, "shared_cpu": shared,
                          "programs": {name: dict(label=labels[name], **(h.summary(v) or {}))
                                       for name, v in runs.items()}}
    results["scaling_runs"] = runs


def scaling_rows(results, h):
    """Per program and worker count: median Mpps, speedup over 1 worker
    (per-round ratio) with its interval, efficiency = speedup / workers,
    and the gain of the workers added since the row before, per worker, in
    units of one worker's rate."""
    sc, runs = results["scaling"], results.get("scaling_runs", {})
    rows = {}
    for prog in ("fwd", "l3fwd"):
        prev = None
        for n in sc["workers"]:
            name = "%s-w%d" % (prog, n)
            s = sc["programs"].get(name)
            if not s or "median" not in s:
                continue
            v = h.round_ratios(runs.get(name), runs.get("%s-w1" % prog))
            sp = statistics.median(v) if v else None
            row = {"mpps": s["median"], "min": s["min"], "max": s["max"], "speedup": sp,
                   "speedup_interval": h.median_interval(v) if v else None,
                   "efficiency": sp / n if sp else None, "added": None}
            if prev is not None and sp and prev[1]:
                row["added"] = (sp - prev[1]) / (n - prev[0])
            rows[name] = row
            prev = (n, sp)
    for n in sc["workers"]:
        v = h.round_ratios(runs.get("fwd-w%d" % n), runs.get("l3fwd-w%d" % n))
        if v and "fwd-w%d" % n in rows:
            rows["fwd-w%d" % n]["fwd_l3fwd"] = statistics.median(v)
            rows["fwd-w%d" % n]["fwd_l3fwd_interval"] = h.median_interval(v)
    sc["rows"] = rows
    return rows


def print_scaling(p, results, h):
    sc = results.get("scaling")
    if not sc:
        return
    if "skipped" in sc:
        log("\nscaling: skipped (%s; needs 3 or more)" % sc["skipped"])
        return
    rows = scaling_rows(results, h)
    log("\n%-9s %-6s %8s %-13s %-22s %6s %7s %s" % (
        "scaling", "", "Mpps", "min-max", "speedup (90% interval)", "eff.", "added",
        "fwd/l3fwd (90% interval)"))
    for n in sc["workers"]:
        for prog in ("fwd", "l3fwd"):
            r = rows.get("%s-w%d" % (prog, n))
            if r is None:
                log("%-9s %-6s failed: %s" % ("%d workers" % n, prog,
                                             results["failed"].get("%s-w%d" % (prog, n), "")))
                continue
            sp = "%.2f (%.2f-%.2f)" % ((r["speedup"],) + r["speedup_interval"]) \
                if r["speedup"] else ""
            rel = "%.3f (%.3f-%.3f)" % ((r["fwd_l3fwd"],) + r["fwd_l3fwd_interval"]) \
                if "fwd_l3fwd" in r else ""
            log("%-9s %-6s %8.2f %-13s %-22s %6s %7s %s" % (
                "%d workers" % n if prog == "fwd" else "", prog, r["mpps"],
                "%.2f-%.2f" % (r["min"], r["max"]), sp,
                "%.2f" % r["efficiency"] if r["efficiency"] else "",
                "%.2f" % r["added"] if r["added"] is not None else "", rel))
    log("(speedup: per-round ratio to 1 worker; eff.: speedup / workers; added: speedup gained\n"
        " per worker added since the row before)")
    if sc["shared_cpu"]:
        log("!! every worker on CPU 1 (BENCH_SCALING_FORCE): these figures mean nothing")
    plot_scaling(p, sc, rows)


def plot_scaling(p, sc, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for prog, marker in (("fwd", "o"), ("l3fwd", "s")):
        pts = [(n, rows["%s-w%d" % (prog, n)]) for n in sc["workers"]
               if "%s-w%d" % (prog, n) in rows]
        if not pts:
            continue
        xs = [n for n, _ in pts]
        med = [r["mpps"] for _, r in pts]
        ax.errorbar(xs, med, yerr=[[r["mpps"] - r["min"] for _, r in pts],
                                   [r["max"] - r["mpps"] for _, r in pts]],
                    marker=marker, capsize=4, label=prog)
        if prog == "fwd" and xs[0] == 1:
            ax.plot(xs, [med[0] * n for n in xs], linestyle=":", color="grey",
                    label="fwd, linear")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sc["workers"])
    ax.set_xticklabels([str(n) for n in sc["workers"]])
    ax.set_xlabel("workers (one rx queue each)")
    ax.set_ylabel("Mpps (median, min-max)")
    ax.set_title("64 B, 2048 flows, fwd l3 16 routes and l3fwd lpm" +
                 ("\nALL WORKERS ON ONE CPU: MEANINGLESS" if sc["shared_cpu"] else ""))
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(p.out, "scaling.png"), dpi=100)
    plt.close(fig)
    log("wrote %s" % os.path.join(p.out, "scaling.png"))
