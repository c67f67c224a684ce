#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""make bench-iperf: TCP throughput with iperf3 through each forwarder on veth.

    tests/bench/iperf.py BUILD_DIR

One topology of network namespaces for every forwarder:

    h1 v1 ---veth--- d1 [fw: forwarder on lcores 0-1] d2 ---veth--- v2 h2

offloads off on every veth end (the forwarders see and send real frames
with real checksums), IPv6 off in every namespace. The hosts hold both
address plans at once: 10.60.0.1/24 and 10.60.0.2/24 for the L2 forwarders
(testpmd io, fwd xconnect, fwd bridge), 10.61.1.2/24 (gw 10.61.1.1) and
10.61.2.2/24 (gw 10.61.2.1) for the routers (l3fwd lpm, fwd l3). Every host
neighbour is static (the peer host, or the gateway at the forwarder port's
MAC), so no run waits on ARP; fwd l3 still resolves the hosts itself, l3fwd
is given their MACs (--eth-dest).

One forwarder runs at a time, in namespace fw, started fresh for each run
(the af_packet sockets of an idle one would still get a copy of every
frame, and only one XDP program fits an interface): lcore 0 main/control,
lcore 1 the one forwarding core (l3fwd runs on lcore 1 alone, as in `make
bench`: its idle main lcore would spin), burst 32, 8191 mbufs (l3fwd: its
default), 1024 rx/tx descriptors, hugepages (--in-memory) or, with
BENCH_HUGEPAGES=0, --no-huge, the same for all. Once it forwards (a ping
h1 -> h2 answered) `iperf3 -c H2 -t IPERF_SECONDS` runs from h1; the
receiver's Gbit/s and the sender's retransmits are kept. This script,
ping and iperf3 (client and server) are pinned to CPU 0.

Runs alternate over the forwarders (A B C D E A B C D E ...), IPERF_RUNS
rounds on net_af_packet ports, then the same on net_af_xdp ports. Printed:
median and min-max Gbit/s, median retransmits, and ratios: the median over
rounds of the ratio of two forwarders in the same round (neighbours in time).

Knobs: IPERF_RUNS (3), IPERF_SECONDS (5), IPERF_PMDS (af_packet,af_xdp),
IPERF_ONLY (some of testpmd,fwd-xc,fwd-br,l3fwd,fwd-l3), BENCH_HUGEPAGES (1). Results: build/bench/iperf.json; each program's log of
its last run: build/bench/iperf-run/. Exit status 1 when a forwarder
produced no result at all.
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
from benchlib import log  # noqa: E402

RUNS = int(os.environ.get("IPERF_RUNS", "3"))
SECONDS = int(os.environ.get("IPERF_SECONDS", "5"))
PMDS = [x for x in os.environ.get("IPERF_PMDS", "af_packet,af_xdp").split(",") if x]
START_TIMEOUT = 90     # s until a forwarder must answer the first ping
PORT = 5201

NS = {n: "fwdiperf-" + n for n in ("h1", "h2", "fw")}
MAC = {"v1": "02:00:00:00:00:01", "v2": "02:00:00:00:00:02",
       "d1": "02:00:00:00:f0:01", "d2": "02:00:00:00:f0:02"}
L2 = {"h1": "10.60.0.1", "h2": "10.60.0.2"}
L3 = {"h1": "10.61.1.2", "h2": "10.61.2.2", "gw1": "10.61.1.1", "gw2": "10.61.2.1"}


def run(*cmd, timeout=30, check=True):
    """A set-up command, time-bound; its output only shown when it fails."""
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        bl.die("%s: %s" % (" ".join(cmd), (r.stderr or r.stdout).strip()))
    return r


def nsrun(ns, *cmd, **kw):
    return run("ip", "netns", "exec", NS[ns], *cmd, **kw)


# ---------------------------------------------------------------- topology
def topology_down():
    """Kill whatever still runs in our namespaces and delete them (also
    those a killed run left behind: the names are fixed)."""
    have = run("ip", "netns", "list", check=False).stdout.split()
    for name in NS.values():
        if name not in have:
            continue
        pids = run("ip", "netns", "pids", name, check=False).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (OSError, ValueError):
                pass
        run("ip", "netns", "del", name, check=False)


def topology_up():
    for n in NS:
        run("ip", "netns", "add", NS[n])
        run("ip", "-n", NS[n], "link", "set", "lo", "up")
        nsrun(n, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
              "net.ipv6.conf.default.disable_ipv6=1")
    for host, hif, fif in (("h1", "v1", "d1"), ("h2", "v2", "d2")):
        run("ip", "link", "add", hif, "netns", NS[host], "address", MAC[hif], "type", "veth",
            "peer", "name", fif, "netns", NS["fw"], "address", MAC[fif])
        for n, ifname in ((host, hif), ("fw", fif)):
            nsrun(n, "ethtool", "-K", ifname, "tx", "off", "tso", "off", "gso", "off",
                  "gro", "off", "rx", "off")
            run("ip", "-n", NS[n], "link", "set", ifname, "up")
    # both address plans on each host; every neighbour static: the peer host
    # (L2 plan) and the gateway at the MAC of the forwarder's port (L3 plan)
    for host, ifname, peer, peer_if, gw, fw_if in (("h1", "v1", "h2", "v2", "gw1", "d1"),
                                                   ("h2", "v2", "h1", "v1", "gw2", "d2")):
        ip = ["ip", "-n", NS[host]]
        run(*ip, "addr", "add", L2[host] + "/24", "dev", ifname)
        run(*ip, "addr", "add", L3[host] + "/24", "dev", ifname)
        run(*ip, "route", "add", "default", "via", L3[gw])
        run(*ip, "neigh", "replace", L2[peer], "lladdr", MAC[peer_if], "dev", ifname,
            "nud", "permanent")
        run(*ip, "neigh", "replace", L3[gw], "lladdr", MAC[fw_if], "dev", ifname,
            "nud", "permanent")


# -------------------------------------------------------------- forwarders
class Forwarder(bl.Program):
    """One program under test in namespace fw on two ports of one PMD over
    d1 and d2; `layer` says which addresses iperf3 uses (2 or 3)."""
    layer = 2

    def __init__(self, paths, name, label, pmd, mode=None):
        super().__init__(paths, "iperf-%s-%s" % (name, pmd), label, None,
                         wrapper=["ip", "netns", "exec", NS["fw"]])
        self.short, self.pmd, self.mode = name, pmd, mode
        self.huge = bl.HUGEPAGES        # Program turns it off for any wrapper

    def devices(self):
        return ["net_%s%d,iface=d%d" % (self.pmd, i, i + 1) for i in (0, 1)]

    def eal(self, lcores="-l0-1 --main-lcore=0"):
        args = lcores.split() + ["--file-prefix", self.prefix, "--no-pci"]
        for dev in self.devices():
            args += ["--vdev", dev]
        return args + bl.eal_memory_args(self.huge)

    def destination(self):
        return L2["h2"] if self.layer == 2 else L3["h2"]

    def stop(self, timeout=20):
        """benchlib's stop, but bounded after SIGKILL too."""
        if self.alive():
            for sig in (signal.SIGCONT, signal.SIGTERM):
                os.kill(self.proc.pid, sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                log("  %s: no exit %d s after SIGTERM: SIGKILL" % (self.label, timeout))
                os.kill(self.proc.pid, signal.SIGKILL)
                try:
                    self.proc.wait(30)
                except subprocess.TimeoutExpired:
                    log("  %s: pid %d survives SIGKILL; going on" % (self.label, self.proc.pid))
        if self in bl.STARTED:
            bl.STARTED.remove(self)
            bl.save_pids()
        self.remove_runtime_dir()


class Testpmd(Forwarder):
    def command(self):
        # --stats-period keeps it running with stdin at EOF; no mlockall
        # (neither fwd nor l3fwd lock their memory, and with --no-huge it
        # can take minutes on a busy machine)
        return (["dpdk-testpmd"] + self.eal() +
                ["--", "--forward-mode=io", "--nb-cores=1", "--burst=32",
                 "--total-num-mbufs=%d" % bl.MBUFS, "--rxd=1024", "--txd=1024",
                 "--stats-period=3600", "--no-mlockall"])


class L3fwd(Forwarder):
    layer = 3

    def command(self):
        rules4 = os.path.join(self.p.run, "l3fwd-v4.cfg")
        rules6 = os.path.join(self.p.run, "l3fwd-v6.cfg")
        with open(rules4, "w") as f:
            f.write("R10.61.1.0/24 0\nR10.61.2.0/24 1\n")
        with open(rules6, "w") as f:
            f.write("R2001:db8::/32 1\n")
        # lcore 1 alone, its main lcore, which forwards (see benchlib.L3fwd)
        return ([self.p.l3fwd] + self.eal("-l1") +
                ["--", "-p", "0x3", "--config=(0,0,1),(1,0,1)", "--lookup=lpm",
                 "--parse-ptype", "--rule_ipv4=" + rules4, "--rule_ipv6=" + rules6,
                 "--eth-dest=0,%s" % MAC["v1"], "--eth-dest=1,%s" % MAC["v2"]])


class Fwd(Forwarder):
    def __init__(self, paths, name, label, pmd, mode):
        super().__init__(paths, name, label, pmd, mode)
        self.layer = 3 if mode == "l3" else 2
        self.conf = os.path.join(paths.run, self.name + ".yaml")
        self.sock = os.path.join(paths.run, self.short + ".sock")

    def config(self):
        d1, d2 = self.devices()
        ports = {
            "xconnect": ["mode: xconnect, peer: d2", "mode: xconnect, peer: d1"],
            "bridge": ["mode: bridge, bridge: br0", "mode: bridge, bridge: br0"],
            "l3": ["mode: l3, addresses: [%s/24]" % L3["gw1"],
                   "mode: l3, addresses: [%s/24]" % L3["gw2"]],
        }[self.mode]
        return ("dpdk:\n  lcores: \"%s\"\n  hugepages: %s\n  memory_mb: %d\n"
                "  file_prefix: %s\n"
                "dataplane:\n  burst: 32\n  mbufs: %d\n"
                "control:\n  socket: %s\n  socket_group: root\n"
                "ports:\n"
                "  - { name: d1, device: \"%s\", %s }\n"
                "  - { name: d2, device: \"%s\", %s }\n%s" %
                (bl.LCORES, "true" if self.huge else "false",
                 bl.MEMORY_MB if self.huge else 2 * bl.MEMORY_MB, self.prefix, bl.MBUFS,
                 self.sock, d1, ports[0], d2, ports[1],
                 "bridges:\n  - { name: br0 }\n" if self.mode == "bridge" else ""))

    def command(self):
        with open(self.conf, "w") as f:
            f.write(self.config())
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        return [self.p.daemon, "-c", self.conf]


ROWS = [  # key, label, class, fwd mode; the ratios pair neighbours in this order
    ("testpmd", "testpmd io", Testpmd, None),
    ("fwd-xc", "fwd xconnect", Fwd, "xconnect"),
    ("fwd-br", "fwd bridge", Fwd, "bridge"),
    ("l3fwd", "l3fwd lpm", L3fwd, None),
    ("fwd-l3", "fwd l3", Fwd, "l3"),
]
ONLY = os.environ.get("IPERF_ONLY", "")
if ONLY:
    ROWS = [r for r in ROWS if r[0] in ONLY.split(",")]
RATIOS = [("fwd-xc/testpmd", "fwd-xc", "testpmd"), ("fwd-l3/l3fwd", "fwd-l3", "l3fwd"),
          ("bridge/xconnect", "fwd-br", "fwd-xc")]


# ----------------------------------------------------------------- one run
def ping_ok(dst):
    r = nsrun("h1", "ping", "-c", "1", "-W", "1", "-q", dst, timeout=10, check=False)
    return r.returncode == 0


def wait_ready(fw):
    """Until the forwarder answers a ping h1 -> h2; an error string if not."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if not fw.alive():
            return "exited (%s) during start-up" % fw.proc.returncode
        if ping_ok(fw.destination()):
            return None
        time.sleep(0.2)
    return "no ping through it within %d s" % START_TIMEOUT


def listening():
    r = nsrun("h2", "ss", "-Hltn", "sport = :%d" % PORT, timeout=10, check=False)
    return r.returncode == 0 and r.stdout.strip() != ""


def iperf(fw, logbase):
    """One iperf3 run h1 -> h2: (result dict, None) or (None, error)."""
    with open(logbase + ".server.log", "w") as out:
        server = subprocess.Popen(["ip", "netns", "exec", NS["h2"], "iperf3", "-s", "-1",
                                   "-p", str(PORT)], stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while not listening():
            if server.poll() is not None or time.monotonic() > deadline:
                return None, "iperf3 server did not start (%s.server.log)" % logbase
            time.sleep(0.1)
        try:
            r = nsrun("h1", "iperf3", "-c", fw.destination(), "-p", str(PORT),
                      "-t", str(SECONDS), "-J", "--connect-timeout", "5000",
                      timeout=SECONDS + 30, check=False)
        except subprocess.TimeoutExpired:
            return None, "iperf3 client did not finish within %d s" % (SECONDS + 30)
        with open(logbase + ".json", "w") as f:
            f.write(r.stdout)
        try:
            d = json.loads(r.stdout)
        except ValueError:
            return None, "iperf3: %s" % (r.stderr or r.stdout).strip()[-200:]
        if "error" in d:
            return None, "iperf3: " + d["error"]
        end = d["end"]
        return {"gbps": end["sum_received"]["bits_per_second"] / 1e9,
                "sender_gbps": end["sum_sent"]["bits_per_second"] / 1e9,
                "retransmits": end["sum_sent"].get("retransmits", 0),
                "seconds": end["sum_received"]["seconds"],
                "cpu_percent": end.get("cpu_utilization_percent", {})}, None
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(10)


def one_run(p, row, pmd):
    key, label, cls, mode = row
    fw = cls(p, key, label, pmd, mode)
    t0 = time.monotonic()
    fw.start()
    try:
        err = wait_ready(fw)
        if err is not None:
            log("  %s %s: last lines of %s:\n%s" % (label, pmd, fw.logfile, fw.log_tail(8)))
            return None, "%s (log %s)" % (err, fw.logfile)
        start_s = time.monotonic() - t0
        res, err = iperf(fw, os.path.join(p.run, fw.name))
        if res is not None:
            res["start_seconds"] = start_s
            if not fw.alive():
                return None, "exited during the run (log %s)" % fw.logfile
        return res, err
    finally:
        fw.stop()


# ----------------------------------------------------------------- summary
def summarise(runs):
    ok = [r for r in runs if r is not None]
    if not ok:
        return None
    g = [r["gbps"] for r in ok]
    return {"median": statistics.median(g), "min": min(g), "max": max(g), "n": len(ok),
            "retransmits_median": statistics.median(r["retransmits"] for r in ok),
            "retransmits_total": sum(r["retransmits"] for r in ok)}


def paired_ratio(num, den):
    v = [a["gbps"] / b["gbps"] for a, b in zip(num, den)
         if a is not None and b is not None and b["gbps"] > 0]
    return statistics.median(v) if v else None


def hugepages_in_use():
    m = {line.split(":")[0]: int(line.split()[1]) for line in open("/proc/meminfo")
         if line.startswith("HugePages_")}
    return m["HugePages_Total"] - m["HugePages_Free"]


def wait_hugepages_released(before, timeout=15):
    """The kernel lets go of an af_xdp UMEM (hugepages) only some time after
    the program exited; lowering nr_hugepages before that leaves the pages
    behind as surplus."""
    deadline = time.monotonic() + timeout
    while hugepages_in_use() > before and time.monotonic() < deadline:
        time.sleep(0.2)


def loadavg():
    return float(open("/proc/loadavg").read().split()[0])


def print_table(results, load0, load1, elapsed):
    log("\niperf3 TCP h1 -> h2, %d s x %d runs, veth, 1 forwarding core, %s (%.0f s)" %
        (SECONDS, RUNS, "hugepages" if bl.HUGEPAGES else "--no-huge", elapsed))
    log("load average %.2f at start, %.2f at end, on %d CPUs%s" %
        (load0, load1, os.cpu_count(),
         ": the machine was busy, read the ratios" if max(load0, load1) >= 1 else ""))
    log("%-14s %-10s %14s  %-11s %12s" % ("forwarder", "pmd", "Gbit/s median", "min-max",
                                         "retransmits"))
    for pmd in PMDS:
        for key, label, *_ in ROWS:
            s = results["summary"][pmd][key]
            if s is None:
                log("%-14s %-10s %14s  %s" % (label, pmd, "FAILED", results["errors"][pmd][key]))
                continue
            mm = "%.2f-%.2f" % (s["min"], s["max"])
            if s["n"] < RUNS:
                mm += " (%d/%d)" % (s["n"], RUNS)
            log("%-14s %-10s %14.2f  %-11s %12.0f" % (label, pmd, s["median"], mm,
                                                    s["retransmits_median"]))
    for pmd in PMDS:
        parts = []
        for name, _, _ in RATIOS:
            r = results["ratios"][pmd].get(name)
            parts.append("%s %s" % (name, "-" if r is None else "%.2f" % r))
        log("ratios %-10s %s" % (pmd + ":", "  ".join(parts)))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if os.geteuid() != 0:
        bl.die("run as root (namespaces, hugepages)")
    p = bl.Paths(sys.argv[1])
    p.run = os.path.join(p.out, "iperf-run")     # not make bench's run/
    os.makedirs(p.run, exist_ok=True)
    for f in (p.daemon, p.fwdctl, p.l3fwd):
        if not os.access(f, os.X_OK):
            bl.die("%s missing: run 'make bench-iperf'" % f)
    for tool in ("iperf3", "ethtool", "dpdk-testpmd", "ss", "ping"):
        if run("sh", "-c", "command -v " + tool, check=False).returncode != 0:
            bl.die(tool + " missing: run 'make deps'")
    bl.install_signal_handlers()
    bl.reap_leftovers(p)
    bl.pin_to_control_cpu()      # this script, ping and iperf3 on CPU 0
    huge = bl.Hugepages(p)
    results = {"config": {"runs": RUNS, "seconds": SECONDS, "pmds": PMDS,
                          "hugepages": bl.HUGEPAGES, "lcores": bl.LCORES, "burst": 32,
                          "mbufs": bl.MBUFS, "cpus": os.cpu_count()},
               "runs": {pmd: {k: [] for k, *_ in ROWS} for pmd in PMDS},
               "errors": {pmd: {} for pmd in PMDS}}
    load0 = loadavg()
    huge_before = hugepages_in_use()
    t0 = time.monotonic()
    try:
        topology_down()
        topology_up()
        huge.up(bl.MEMORY_MB // 2 + 64)      # one program at a time
        for pmd in PMDS:
            log("== %s: %d rounds of %s" % (pmd, RUNS, ", ".join(k for k, *_ in ROWS)))
            for r in range(RUNS):
                line = []
                for row in ROWS:
                    key, label = row[:2]
                    res, err = one_run(p, row, pmd)
                    results["runs"][pmd][key].append(res)
                    if res is None:
                        results["errors"][pmd].setdefault(key, err)
                        log("  %s %s: FAILED: %s" % (label, pmd, err))
                        line.append("%s -" % key)
                    else:
                        line.append("%s %.2f" % (key, res["gbps"]))
                log("  round %d/%d: %s" % (r + 1, RUNS, ", ".join(line)))
    finally:
        bl.cleanup_all()
        topology_down()
        if bl.HUGEPAGES:
            wait_hugepages_released(huge_before)
        huge.down()
    load1 = loadavg()
    results["load"] = {"start": load0, "end": load1}
    results["summary"] = {pmd: {k: summarise(results["runs"][pmd][k]) for k, *_ in ROWS}
                          for pmd in PMDS}
    results["ratios"] = {pmd: {name: paired_ratio(results["runs"][pmd][a],
                                                  results["runs"][pmd][b])
                               for name, a, b in RATIOS
                               if a in results["runs"][pmd] and b in results["runs"][pmd]}
                         for pmd in PMDS}
    print_table(results, load0, load1, time.monotonic() - t0)
    out = os.path.join(p.out, "iperf.json")
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    log("\nwrote %s" % out)
    failed = [(pmd, k) for pmd in PMDS for k, *_ in ROWS if results["summary"][pmd][k] is None]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
