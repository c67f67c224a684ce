#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""make bench-callgrind: instructions per packet of fwd and l3fwd, repeatable.

    tests/bench/callgrind.py BUILD_DIR

fwd-daemon has DPDK linked in; l3fwd runs as its Makefile builds it by
default (shared libraries) and linked statically. Each program runs under
`valgrind --tool=callgrind --fair-sched=yes` on the bench set-up (64 B
pcap with infinite_rx as source, net_null sink, lcore 1 forwarding, burst
32; no hugepages under valgrind) with collection only inside its
forwarding loop (--toggle-collect: fwd's worker_main, l3fwd's
lpm_main_loop), so start-up and the control thread are not counted. It is
stopped once the sink has counted CG_PACKETS packets (default 2,000,000).
Then fwd and l3fwd (shared) again on IPv6: 62 B frames to
2001:200:0:1::/64 (gen_pcap6.py) with the set-up of bench.py's ipv6 group,
printed beside the IPv4 figures. Then fwd l3 and l3fwd (shared) on the IMIX
pcap of bench.py's imix group (the same flows in 64/594/1518 B, 7:4:1).
CG_ONLY=ipv4, ipv6 or imix (comma-separated) runs those only; CG_ONLY=acl
(not in the default run) profiles fwd l3 16 routes with the 1,000-rule
acl_in of bench.py's acl group (benchlib.acl_config), beside fwd l3 16
routes without it; then both on 64 k distinct flows (benchlib.flows_pcaps),
eight times the workers' ACL verdict caches, so that nearly every packet
misses them. CG_ONLY=vlan: fwd l3 16 routes on frames tagged VLAN
100 routed out tagged VLAN 200 (bench.py's vlan group, l2vlan.py), beside
untagged; CG_ONLY=l2: fwd's bridge on the l2 group's frames (its sink,
net_pcap1, polls empty after the learning frames: counted as PMD work).
CG_ONLY=bond: fwd l3 16 routes out of a two-member bond, both members
distributing (LACP with a partner daemon over net_memif, hash l34:
bondbench.py), beside out of one port (net_null), and out of one
net_memif port to the partner (the members' PMD without the bond).

From the callgrind profile:
  packets      calls into net_pcap's rx burst x burst size (infinite_rx
               always returns a full burst; checked against the counters)
  PMD share    inclusive cost of every call from the application into
               net_pcap or net_null (rx/tx burst, with the mbuf and mempool
               work they do), plus the inlined rte_eth_rx/tx_burst wrappers
               (lines of rte_ethdev.h) in the application. The drivers are
               known by their shared object (l3fwd) or, linked statically
               into fwd-daemon, by their functions' names (eth_pcap_*,
               eth_null_*)
  app share    everything else in the loop: the program's own work
The per-program profiles stay in build/bench/callgrind.NAME.out (read them
with callgrind_annotate); results go to build/bench/callgrind.json.
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import bondbench  # noqa: E402
import l2vlan  # noqa: E402
from benchlib import log  # noqa: E402

PACKETS = int(os.environ.get("CG_PACKETS", "2000000"))
TIMEOUT = int(os.environ.get("CG_TIMEOUT", "600"))
PMD_OBJECTS = ("librte_net_pcap", "librte_net_null")
RX_OBJECT = "librte_net_pcap"
PMD_FUNCTIONS = ("eth_pcap_", "eth_null_", "eth_tx_drop", "eth_memif_")   # the same, linked in
#                          (eth_tx_drop: net_pcap's tx without a tx_pcap; eth_memif_: the bond
#                          group's members)
RX_FUNCTION = "eth_pcap_rx_infinite"   # the source's: the l2 sink's empty polls are eth_pcap_rx
ONLY = os.environ.get("CG_ONLY", "ipv4,ipv6,imix,vlan,l2").split(",")


def valgrind(out, loop_fn):
    return ["valgrind", "--tool=callgrind", "--fair-sched=yes", "--collect-atstart=no",
            "--toggle-collect=" + loop_fn, "--callgrind-out-file=" + out, "-q"]


class Profile:
    """The figures of one callgrind output file (format: valgrind docs,
    "Callgrind Format Specification"), with name compression."""

    def __init__(self, path, app):
        self.total = self.pmd = self.ethdev = self.rx_calls = 0
        self.self_cost = {}
        names = {"ob": {}, "fl": {}, "fn": {}}

        def name(space, spec):
            m = re.match(r"\((\d+)\)\s*(.*)$", spec)
            if not m:
                return spec
            if m.group(2):
                names[space][m.group(1)] = m.group(2)
            return names[space].get(m.group(1), "?")

        ob = fn_ob = fl = file = fn = ""
        cob, cfn, call = None, None, None
        space = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl",
                 "cfl": "fl", "fn": "fn", "cfn": "fn"}
        with open(path) as f:
            for line in f:
                c = line[0]
                if c.isdigit() or c in "+-*":
                    parts = line.split()
                    cost = int(parts[1]) if len(parts) > 1 else 0
                    if call is not None:      # the inclusive cost of the calls just named
                        callee_ob, callee, n = call
                        call = None
                        if fn_ob == app and not fn.startswith(PMD_FUNCTIONS) and (
                                callee_ob.split("/")[-1].startswith(PMD_OBJECTS)
                                or callee.startswith(PMD_FUNCTIONS)):
                            self.pmd += cost
                            if RX_OBJECT in callee_ob or callee.startswith(RX_FUNCTION):
                                self.rx_calls += n
                        continue
                    key = (fn_ob.split("/")[-1], fn)
                    self.self_cost[key] = self.self_cost.get(key, 0) + cost
                    if fn_ob == app and file.endswith("/rte_ethdev.h"):
                        self.ethdev += cost
                    continue
                key, eq, val = line.rstrip("\n").partition("=")
                if not eq:
                    if line.startswith(("summary:", "totals:")):
                        self.total = int(line.split()[1])
                    continue
                if key in space:
                    v = name(space[key], val)
                    if key == "ob":
                        ob = v
                    elif key == "fl":
                        fl = file = v
                    elif key in ("fi", "fe"):
                        file = v
                    elif key == "fn":
                        fn, fn_ob, file = v, ob, fl
                    elif key == "cob":
                        cob = v
                    elif key == "cfn":
                        cfn = v
                elif key == "calls":
                    call = (cob or fn_ob, cfn or "", int(val.split()[0]))
                    cob = cfn = None

    def top(self, n=8):
        return sorted(self.self_cost.items(), key=lambda kv: -kv[1])[:n]


def zero_counts(prog):
    """A program that forwards only once set up (zero_when_forwarding: the
    bond group's, whose frames are dropped until the memif connects and
    the members distribute) is counted from then on: callgrind's counters
    zeroed (callgrind_control -z, through vgdb), and the counters' sample
    then returned, to count from."""
    if not getattr(prog, "zero_when_forwarding", False):
        return bl.Sample(0, 0, 0, 0, 0)
    r = subprocess.run(["callgrind_control", "-z", str(prog.proc.pid)], capture_output=True,
                       text=True, timeout=60)
    if r.returncode != 0:
        raise OSError("callgrind_control -z: " + (r.stderr or r.stdout).strip())
    return prog.sample()


def profile_one(p, prog, loop_fn, app_path):
    out = os.path.join(p.out, "callgrind.%s.out" % prog.name)
    if os.path.exists(out):
        os.unlink(out)
    prog.wrapper = valgrind(out, loop_fn)
    prog.huge = False
    log("  %s under callgrind ..." % prog.label)
    t0 = time.monotonic()
    prog.start()
    try:
        if not prog.wait_forwarding(timeout=300):
            log("  %s: FAILED: %s\n%s" % (prog.label, prog.error, prog.log_tail()))
            return None
        base = zero_counts(prog)
        last = prog.sample()
        while last.tx - base.tx < PACKETS and time.monotonic() - t0 < TIMEOUT and prog.alive():
            time.sleep(0.5)
            last = prog.sample()
        last = prog.sample()
        spread = prog.member_tx() if hasattr(prog, "member_tx") else None
    finally:
        prog.stop(timeout=300)
    if not os.path.exists(out):
        log("  %s: no callgrind output\n%s" % (prog.label, prog.log_tail()))
        return None
    if spread is not None and bondbench.spread_error(spread):
        log("  %s: FAILED: %s" % (prog.label, bondbench.spread_error(spread)))
        return None
    prof = Profile(out, app_path)
    packets = prof.rx_calls * prog.burst
    app = prof.total - prof.pmd - prof.ethdev
    res = {
        "label": prog.label, "profile": out, "packets": packets,
        "packets_counted_before_stop": last.rx - base.rx,
        "instructions": prof.total,
        "per_packet": prof.total / packets if packets else None,
        "pmd_per_packet": (prof.pmd + prof.ethdev) / packets if packets else None,
        "ethdev_inline_per_packet": prof.ethdev / packets if packets else None,
        "app_per_packet": app / packets if packets else None,
        "top_functions": [{"object": o, "function": f, "per_packet": c / packets}
                          for (o, f), c in prof.top()] if packets else [],
        "seconds": time.monotonic() - t0,
    }
    if spread is not None:
        res["member_tx"] = spread
    if packets and not 0.5 * packets <= last.rx - base.rx <= packets:
        res["warning"] = "rx calls x burst (%d) and the rx counter (%d) disagree" % (
            packets, last.rx - base.rx)
    return res


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    p = bl.Paths(sys.argv[1])
    bl.install_signal_handlers()
    bl.reap_leftovers(p)
    bl.prepare_inputs(p)
    l3fwd_app = os.path.realpath(p.l3fwd)
    runs = [
        (bl.Fwd(p, "cg-fwd-16", "fwd l3 16 routes", p.pcap64, "l3"), "worker_main", p.daemon),
        (bl.L3fwd(p, "cg-l3fwd", "l3fwd lpm", p.pcap64), "lpm_main_loop", l3fwd_app),
        (bl.L3fwd(p, "cg-l3fwd-st", "l3fwd lpm, static", p.pcap64, static=True), "lpm_main_loop",
         p.l3fwd_static),
        (bl.Fwd(p, "cg-fwd-xc", "fwd xconnect", p.pcap64, "xconnect"), "worker_main", p.daemon),
        (bl.Fwd(p, "cg-fwd-ecmp", "fwd l3 4-way ECMP", p.pcap64, "l3", ecmp=True), "worker_main",
         p.daemon),
    ] if "ipv4" in ONLY else []
    if "ipv6" in ONLY:
        runs += [
            (bl.Fwd(p, "cg-fwd-v6", "fwd l3 IPv6", p.pcap62v6, "l3", ipv6=True), "worker_main",
             p.daemon),
            (bl.L3fwd(p, "cg-l3fwd-v6", "l3fwd lpm IPv6", p.pcap62v6, ipv6=True), "lpm_main_loop",
             l3fwd_app),
        ]
    if "imix" in ONLY:
        runs += [
            (bl.Fwd(p, "cg-fwd-imix", "fwd l3 IMIX", p.pcap_imix, "l3"), "worker_main", p.daemon),
            (bl.L3fwd(p, "cg-l3fwd-imix", "l3fwd lpm IMIX", p.pcap_imix), "lpm_main_loop",
             l3fwd_app),
        ]
    if "vlan" in ONLY or "l2" in ONLY:
        pcap_l2, learn, tagged = l2vlan.l2_pcaps(p)
    if "vlan" in ONLY:
        if "ipv4" not in ONLY:
            runs.append((bl.Fwd(p, "cg-fwd-16", "fwd l3 16 routes", p.pcap64, "l3"),
                         "worker_main", p.daemon))
        runs.append((l2vlan.FwdVlan(p, "cg-fwd-vlan", "fwd l3 VLAN 100->200", tagged, "l3"),
                     "worker_main", p.daemon))
    if "l2" in ONLY:
        runs.append((l2vlan.FwdBridge(p, "cg-fwd-br", "fwd bridge", pcap_l2, learn),
                     "worker_main", p.daemon))
    if "bond" in ONLY:
        if "ipv4" not in ONLY and "vlan" not in ONLY:
            runs.append((bl.Fwd(p, "cg-fwd-16", "fwd l3 16 routes", p.pcap64, "l3"),
                         "worker_main", p.daemon))
        runs += [(bondbench.FwdMemif(p, "cg-fwd-memif", "fwd l3 one memif", p.pcap64, "l3"),
                  "worker_main", p.daemon),
                 (bondbench.FwdBond(p, "cg-fwd-bond", "fwd l3 bond of 2", p.pcap64, "l3"),
                  "worker_main", p.daemon)]
    if "acl" in ONLY:
        if "ipv4" not in ONLY:
            runs.append((bl.Fwd(p, "cg-fwd-16", "fwd l3 16 routes", p.pcap64, "l3"),
                         "worker_main", p.daemon))
        runs.append((bl.Fwd(p, "cg-fwd-acl", "fwd l3, 1,000-rule acl_in", p.pcap64, "l3",
                            acl_rules=1000), "worker_main", p.daemon))
        flows = bl.flows_pcaps(p, bl.ACL_NEW_FLOWS)[0]
        runs += [(bl.Fwd(p, "cg-fwd-16f", "fwd l3 16, 64k flows", flows, "l3",
                         extra_mbufs=bl.ACL_NEW_FLOWS), "worker_main", p.daemon),
                 (bl.Fwd(p, "cg-fwd-aclf", "acl_in, 64k flows", flows, "l3", acl_rules=1000,
                         extra_mbufs=bl.ACL_NEW_FLOWS), "worker_main", p.daemon)]
    results = {"packets_target": PACKETS}
    try:
        for prog, loop_fn, app in runs:
            r = profile_one(p, prog, loop_fn, app)
            if r is not None:
                results[prog.name] = r
    finally:
        bl.cleanup_all()
    report(results)
    with open(os.path.join(p.out, "callgrind.json"), "w") as f:
        json.dump(results, f, indent=1)
    log("\nwrote %s" % os.path.join(p.out, "callgrind.json"))


def report_bond(results, fwd):
    """The bond against one port (net_null), and against one net_memif
    port (its members' PMD): all instructions, and the application's."""
    bond, memif = results.get("cg-fwd-bond"), results.get("cg-fwd-memif")
    if not bond or not bond.get("per_packet"):
        return
    if "member_tx" in bond:
        log("\nbond of 2: tx by member m0 %d, m1 %d" % tuple(bond["member_tx"]))
    if fwd and fwd.get("per_packet"):
        results["bond_ratio"] = fwd["per_packet"] / bond["per_packet"]
        log("out of a 2-member bond against one port, all instructions per packet: %+.1f; "
            "packets a second at equal cycles: %.3f x (target >= 0.95: %s)" %
            (bond["per_packet"] - fwd["per_packet"], results["bond_ratio"],
             "PASS" if results["bond_ratio"] >= 0.95 else "FAIL"))
        log("  application only: %+.1f (%.3f x)" % (
            bond["app_per_packet"] - fwd["app_per_packet"],
            fwd["app_per_packet"] / bond["app_per_packet"]))
    if memif and memif.get("per_packet"):
        results["bond_memif_ratio"] = memif["per_packet"] / bond["per_packet"]
        log("against one port of the members' PMD (net_memif), all: %+.1f (%.3f x), "
            "application: %+.1f (%.3f x)" % (
                bond["per_packet"] - memif["per_packet"], results["bond_memif_ratio"],
                bond["app_per_packet"] - memif["app_per_packet"],
                memif["app_per_packet"] / bond["app_per_packet"]))


def report(results):
    log("\n%-20s %10s %14s %12s %12s" % ("instructions/packet", "packets", "total",
                                          "PMD+ethdev", "application"))
    for name, r in results.items():
        if not isinstance(r, dict) or r.get("per_packet") is None:
            continue
        log("%-20s %10d %14.1f %12.1f %12.1f" % (r["label"], r["packets"], r["per_packet"],
                                                 r["pmd_per_packet"], r["app_per_packet"]))
        if "warning" in r:
            log("%20s ! %s" % ("", r["warning"]))
    for fwd_name, l3_name, key, what in (("cg-fwd-16", "cg-l3fwd", "app_ratio_fwd_l3fwd", ""),
                                         ("cg-fwd-v6", "cg-l3fwd-v6", "app_ratio_fwd_l3fwd_v6",
                                          ", IPv6"),
                                         ("cg-fwd-imix", "cg-l3fwd-imix",
                                          "app_ratio_fwd_l3fwd_imix", ", IMIX")):
        fwd, l3 = results.get(fwd_name), results.get(l3_name)
        if fwd and l3 and fwd.get("app_per_packet") and l3.get("app_per_packet"):
            ratio = fwd["app_per_packet"] / l3["app_per_packet"]
            results[key] = ratio
            log("\napplication instructions per packet%s, fwd / l3fwd: %.3f (target <= 1.0: %s)"
                % (what, ratio, "PASS" if ratio <= 1.0 else "FAIL"))
    fwd, tag = results.get("cg-fwd-16"), results.get("cg-fwd-vlan")
    if fwd and tag and fwd.get("app_per_packet") and tag.get("app_per_packet"):
        results["vlan_app_extra"] = tag["app_per_packet"] - fwd["app_per_packet"]
        log("\nVLAN 100->200 against untagged, application instructions per packet: %+.1f "
            "(%.3f x), all: %.3f x" % (results["vlan_app_extra"],
                                      tag["app_per_packet"] / fwd["app_per_packet"],
                                      tag["per_packet"] / fwd["per_packet"]))
    report_bond(results, fwd)
    for fwd_name, name, what in (("cg-fwd-16", "cg-l3fwd", "l3fwd"),
                                 ("cg-fwd-16", "cg-l3fwd-st", "l3fwd static"),
                                 ("cg-fwd-v6", "cg-l3fwd-v6", "l3fwd, IPv6"),
                                 ("cg-fwd-imix", "cg-l3fwd-imix", "l3fwd, IMIX")):
        fwd, ref = results.get(fwd_name), results.get(name)
        if fwd and ref and fwd.get("per_packet") and ref.get("per_packet"):
            log("all instructions per packet, fwd / %s: %.3f" %
                (what, fwd["per_packet"] / ref["per_packet"]))
    for name, r in results.items():
        if isinstance(r, dict) and r.get("top_functions"):
            log("\n%s: top functions by own instructions per packet" % r["label"])
            for t in r["top_functions"]:
                log("  %8.1f  %s %s" % (t["per_packet"], t["object"], t["function"]))


if __name__ == "__main__":
    main()
