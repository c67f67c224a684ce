# SPDX-License-Identifier: BSD-3-Clause
"""bench.py's l2 and vlan groups (tests/bench/README.md), and the programs
they run: fwd's bridge, Open vSwitch with DPDK, and fwd routing between
VLAN interfaces.

  l2    fwd's bridge (two ports in one bridge) beside ovs-vswitchd-dpdk
        (a datapath_type=netdev bridge of the same two ports, NORMAL
        action, one PMD thread on lcore 1's CPU), both on gen_l2.py's
        frames: the source net_pcap as everywhere, and for a sink
        net_pcap1 reading l2-learn.pcap once (its tx drops, counted as
        sent), so that both learn the sink's hosts from frames, as a
        switch does; OVS also gets them with fdb/add, since it learns in
        its slow path and may miss the first frames while it starts
  vlan  fwd l3 16 routes with the frames tagged VLAN 100 on the source
        and leaving tagged VLAN 200 on the sink (the addresses, routes
        and neighbours on VLAN interfaces src.100 and sink.200), beside
        the same untagged
"""
import os
import statistics
import shutil
import subprocess
import time

import benchlib as bl
from benchlib import log

OVS_VSWITCHD = "/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk"
OVS_SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema"
SINK_HOSTS = ["02:00:00:02:00:%02x" % h for h in range(8)]   # gen_l2.py
AGING_S = 86400   # the learnt addresses stay for the whole run


def l2_pcaps(p):
    """gen_l2.py's files next to the 64 B pcap (made once)."""
    names = ("l2-64.pcap", "l2-learn.pcap", "vlan100-64.pcap")
    paths = [os.path.join(p.traffic, n) for n in names]
    if not all(os.path.exists(f) for f in paths):
        log("generating the l2 and vlan traffic ...")
        subprocess.run([bl.PY, os.path.join(bl.ROOT, "tests/bench/gen_l2.py"), p.pcap64,
                        p.traffic], check=True)
    return paths


def learn_sink(learn):
    """The l2 group's sink: reads the learning frames once; no tx_pcap, so
    net_pcap drops (and counts) what it is given."""
    return "net_pcap1,rx_pcap=%s" % learn


class FwdBridge(bl.Fwd):
    """fwd with both ports in bridge br0."""

    def __init__(self, paths, name, label, pcap, learn, **kw):
        super().__init__(paths, name, label, pcap, "bridge", **kw)
        self.learn = learn

    def config(self):
        head = super().config().split("ports:\n")[0]
        return head + (
            "ports:\n"
            "  - { name: src, device: \"%s\", mode: bridge, bridge: br0 }\n"
            "  - { name: sink, device: \"%s\", mode: bridge, bridge: br0 }\n"
            "bridges:\n  - { name: br0, mac_aging_s: %d }\n" %
            (self.source(), learn_sink(self.learn), AGING_S))

    def wait_forwarding(self, timeout=60):
        if not super().wait_forwarding(timeout):
            return False
        r = self.fwdctl("bridge", "fdb", "br0")
        learnt = [m for m in SINK_HOSTS if m in r.stdout]
        if len(learnt) != len(SINK_HOSTS):
            self.error = "learnt %d of the sink's %d hosts" % (len(learnt), len(SINK_HOSTS))
            return False
        return True


class FwdVlan(bl.Fwd):
    """fwd l3 16 routes between VLAN interfaces: src.100 (the traffic's
    tag) and sink.200; the ports carry only their VLANs."""

    def config(self):
        text = super().config()
        head, rest = text.split("ports:\n")
        routes = rest[rest.index("routes:\n"):].replace("port: sink }", "port: sink.200 }")
        return head + (
            "ports:\n"
            "  - { name: src, device: \"%s\", mode: l3 }\n"
            "  - { name: sink, device: \"net_null0,no-rx=1\", mode: l3 }\n"
            "interfaces:\n"
            "  - { name: src.100, port: src, vlan: 100, addresses: [%s] }\n"
            "  - { name: sink.200, port: sink, vlan: 200, addresses: [%s] }\n%s" %
            (self.source(), bl.SRC_NET, bl.SINK_NET, routes))

    def wait_forwarding(self, timeout=60):
        """And the packets leave by sink.200, as `fwdctl -j stats` counts
        each interface (a dict named sink.200 wherever it is listed)."""
        if not super().wait_forwarding(timeout):
            return False
        found = find_named(self.stats(), "sink.200")
        if found is None:
            log("  %s: no sink.200 in `fwdctl -j stats`: its tag not checked" % self.name)
        elif not found.get("tx_packets"):
            self.error = "nothing sent by sink.200: %s" % found
            return False
        return True


def find_named(d, name):
    """The first dict in d (JSON) whose "name" is name."""
    if isinstance(d, dict):
        if d.get("name") == name:
            return d
        d = list(d.values())
    if isinstance(d, list):
        for v in d:
            r = find_named(v, name)
            if r is not None:
                return r
    return None


class Ovs(bl.DpdkApp):
    """ovs-vswitchd-dpdk with a private ovsdb-server, database, rundir,
    pidfiles and unixctl sockets in run/NAME.ovs (never the system's),
    its non-PMD threads on the control CPU, one PMD thread on lcore 1's
    CPU. Counted as testpmd is: DPDK telemetry, port 0 the source, 1 the
    sink (the vdevs' order)."""

    def __init__(self, paths, name, label, pcap, learn, **kw):
        super().__init__(paths, name, label, pcap, **kw)
        self.learn = learn
        self.dir = os.path.join(paths.run, name + ".ovs")
        self.db = None
        self.env = dict(os.environ, OVS_RUNDIR=self.dir, OVS_LOGDIR=self.dir,
                        OVS_DBDIR=self.dir, OVS_SYSCONFDIR=self.dir)

    def ctl(self, *args, check=True):
        cmd = ["ovs-vsctl", "--db=unix:%s/db.sock" % self.dir, "--timeout=60"] + list(args)
        return subprocess.run(cmd, env=self.env, check=check, capture_output=True, text=True)

    def appctl(self, *args):
        return subprocess.run(["ovs-appctl", "-t", os.path.join(self.dir, "vswitchd.ctl")] +
                              list(args), env=self.env, check=True, capture_output=True,
                              text=True, timeout=30)

    def extra(self):
        mem = [] if self.huge else ["--no-huge"]   # OVS adds --in-memory itself
        return " ".join(["--file-prefix", self.prefix, "--no-pci"] + mem +
                        ["--vdev", self.source(), "--vdev", learn_sink(self.learn)])

    def start_db(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        conf = os.path.join(self.dir, "conf.db")
        subprocess.run(["ovsdb-tool", "create", conf, OVS_SCHEMA], check=True)
        self.db = subprocess.Popen(
            ["taskset", "-c", str(bl.CONTROL_CPU), "ovsdb-server", conf,
             "--remote=punix:%s/db.sock" % self.dir, "--pidfile=%s/ovsdb.pid" % self.dir,
             "--unixctl=%s/ovsdb.ctl" % self.dir, "--log-file=%s/ovsdb.log" % self.dir,
             "--no-chdir"], env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        sock, deadline = os.path.join(self.dir, "db.sock"), time.monotonic() + 30
        while not os.path.exists(sock):
            if self.db.poll() is not None or time.monotonic() > deadline:
                raise OSError("ovsdb-server did not start (%s/ovsdb.log)" % self.dir)
            time.sleep(0.1)
        self.ctl("--no-wait", "init")
        mem = "%d" % self.memory_mb
        self.ctl("--no-wait", "set", "Open_vSwitch", ".", "other_config:dpdk-init=true",
                 "other_config:pmd-cpu-mask=0x%x" % (1 << int(bl.FORWARDING_LCORE)),
                 "other_config:dpdk-socket-mem=" + mem, "other_config:dpdk-socket-limit=" + mem,
                 "other_config:dpdk-extra=" + self.extra())

    def command(self):
        d = self.dir
        return ["taskset", "-c", str(bl.CONTROL_CPU), OVS_VSWITCHD, "unix:%s/db.sock" % d,
                "--pidfile=%s/vswitchd.pid" % d, "--unixctl=%s/vswitchd.ctl" % d,
                "--log-file=%s/vswitchd.log" % d, "--no-chdir"]

    def start(self):
        """A failure is this program's (self.error, wait_forwarding says
        so), not the run's; nothing of it is left running."""
        self.start_error = None
        try:
            self.start_ovs()
        except (OSError, subprocess.SubprocessError) as e:
            self.start_error = "%s (logs in %s)" % (e, self.dir)
            self.stop()

    def wait_forwarding(self, timeout=60):
        if self.start_error:
            self.error = self.start_error
            return False
        return super().wait_forwarding(timeout)

    def start_ovs(self):
        self.start_db()
        super().start()
        self.ctl("add-br", "br0", "--", "set", "bridge", "br0", "datapath_type=netdev",
                 "other_config:mac-aging-time=%d" % AGING_S,
                 "--", "add-port", "br0", "p0", "--", "set", "Interface", "p0", "type=dpdk",
                 "options:dpdk-devargs=net_pcap0",
                 "--", "add-port", "br0", "p1", "--", "set", "Interface", "p1", "type=dpdk",
                 "options:dpdk-devargs=net_pcap1")
        # a new bridge's one flow is already NORMAL; say so anyway
        mgmt = "unix:%s/br0.mgmt" % self.dir
        subprocess.run(["ovs-ofctl", "del-flows", mgmt], env=self.env, check=True, timeout=30)
        subprocess.run(["ovs-ofctl", "add-flow", mgmt, "priority=0,actions=NORMAL"],
                       env=self.env, check=True, timeout=30)
        for mac in SINK_HOSTS:
            self.appctl("fdb/add", "br0", "p1", "0", mac)

    def stop(self, timeout=20):
        super().stop(timeout)
        if self.db is not None and self.db.poll() is None:
            self.db.terminate()
            try:
                self.db.wait(timeout)
            except subprocess.TimeoutExpired:
                self.db.kill()
                self.db.wait()
        self.db = None

    def pids(self):
        return super().pids() + ([self.db.pid] if self.db is not None else [])


# ------------------------------------------------------------------- groups
def group_l2(p):
    pcap, learn, _ = l2_pcaps(p)
    return [FwdBridge(p, "fwd-br-l2", "fwd bridge", pcap, learn),
            Ovs(p, "ovs-l2", "ovs-dpdk NORMAL", pcap, learn)]


def group_vlan(p):
    _, _, tagged = l2_pcaps(p)
    return [bl.Fwd(p, "fwd-16-vlan", "fwd l3 16 routes", p.pcap64, "l3"),
            FwdVlan(p, "fwd-tag-vlan", "fwd l3 VLAN 100 -> 200", tagged, "l3")]


def run(p, results, bench, key, make):
    log("\n== %s" % key)
    runs, labels = bench.alternate_starts(make, bench.ROUNDS, key, results["failed"])
    results[key] = {name: dict(label=labels[name], **(bench.summary(v) or {}))
                    for name, v in runs.items()}
    results[key + "_runs"] = runs


def run_l2(p, results, bench):
    run(p, results, bench, "l2", lambda: group_l2(p))


def run_vlan(p, results, bench):
    run(p, results, bench, "vlan", lambda: group_vlan(p))


# ------------------------------------------------------------------- report
RATIOS = {"l2": ("fwd/ovs", "fwd-br-l2", "ovs-l2"),
          "vlan": ("vlan/untagged", "fwd-tag-vlan", "fwd-16-vlan")}


def print_group(results, bench, key, title):
    if key not in results:
        return
    rname, a, b = RATIOS[key]
    v = bench.round_ratios(results[key + "_runs"].get(a), results[key + "_runs"].get(b))
    rtext = ""
    if v:
        med, ci = statistics.median(v), bench.median_interval(v)
        results.setdefault("ratios", {})[key] = {rname: med}
        results.setdefault("ratio_intervals", {})[key] = {rname: ci}
        rtext = "%s %.3f (%.3f-%.3f)" % ((rname, med) + ci)
    log("\n%-24s %12s   %-15s %s" % (title, "median Mpps", "min-max",
                                       "ratio: per-round median (90% interval)"))
    for name, s in results[key].items():
        log("%-24s %s %s" % (s.get("label", name), bench.fmt_mpps(s), rtext if name == a else ""))
        if s.get("drops") or abs(s.get("worst_round_diff", 0)) > 1024:
            log("%-24s   ! drops %d %s, sink count - program count %d (worst round %d)" %
                ("", s["drops"], s.get("drop_reasons", {}), s.get("sink_count_diff", 0),
                 s.get("worst_round_diff", 0)))
    for name, err in results["failed"].items():
        if name.endswith("-" + key):
            log("%-24s failed: %s" % (name, err))


def print_groups(results, bench):
    print_group(results, bench, "l2", "L2 64 B")
    print_group(results, bench, "vlan", "VLAN 64 B (+4 B tag)")


def targets(ratio_at_least):
    return [ratio_at_least("fwd bridge >= 1.2x ovs-dpdk NORMAL", "fwd/ovs", 1.2, "l2"),
            ratio_at_least("fwd l3 VLAN >= 0.95x untagged", "vlan/untagged", 0.95, "vlan")]
