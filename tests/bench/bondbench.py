# SPDX-License-Identifier: BSD-3-Clause
"""The bond group of the benchmarks: fwd l3 16 routes out of a bond of
two members, both distributing (LACP, hash l34), beside the same routes
out of one port.

A member needs an LACP partner to distribute. The partner is a second
fwd-daemon (Partner) on CPU 0 (its control; its one worker on CPU 2
where the machine has one, else on CPU 0 too):
its bond "peer" has two net_memif server ports, and the measured
daemon's members are their clients, wired member to member. The routed
frames (2,048 flows of gen_pcap.py, spread by the l34 hash) cross to
the partner, which drops them (they are addressed to the gateways, not
to it). FwdBond waits until `fwdctl bond show -j` has both members
distributing before it counts.

The bond is the sink (named "sink", so benchlib's counters read it: a
bond's counters are its members' sums). Its members' PMD is net_memif,
whose tx copies each frame into the ring, where the single port's
net_null frees it; FwdMemif (one port "sink" over net_memif to a plain
port of the partner) is that PMD alone, so that the bond's own cost is
the difference between those two.

On a machine of two CPUs the partner's worker shares CPU 0 and drains
the rings far slower than fwd fills them (tx_full drops on the members
and on the memif port): make bench's Mpps of those two programs is then
the partner's, and the bond's cost is read in make bench-callgrind's
instructions per packet (tests/bench/README.md, "The bond group").
"""
import json
import os
import shutil
import subprocess
import time

import benchlib as bl
import l2vlan

MEMBER_MAC = "02:00:00:00:%02x:%02x"   # host byte: 1 measured daemon, 2 partner


class Partner(bl.HotSource):
    """The LACP partner (or, members=1, the plain peer port) of one
    program: a fwd-daemon on CPU 0 whose ports are net_memif servers,
    started, paused and stopped with it (benchlib.Program's gen: a
    HotSource's signal and stop)."""

    def __init__(self, paths, name, members):
        self.p, self.members = paths, members
        self.prefix = "fwdbench-%s-peer" % name
        base = os.path.join(paths.run, name + "-peer")
        self.conf, self.sock, self.logfile = base + ".yaml", base + ".sock", base + ".log"
        self.memifs = [os.path.join(paths.run, "%s-m%d.memif" % (name, i))
                       for i in range(members)]
        self.proc = None

    def device(self, i, role):
        """Port i's net_memif, the partner's side (server) or the client."""
        return "net_memif%d,role=%s,socket=%s,socket-abstract=no,mac=%s" % (
            i, role, self.memifs[i], MEMBER_MAC % (1 if role == "client" else 2, i))

    def config(self):
        ports = "".join("  - { name: a%d, device: \"%s\"%s }\n" %
                        (i, self.device(i, "server"),
                         "" if self.members > 1 else ", mode: l3, addresses: [198.19.0.9/24]")
                        for i in range(self.members))
        bonds = ("bonds:\n  - { name: peer, members: [%s], hash: l34, addresses: "
                 "[198.19.0.9/24] }\n" % ", ".join("a%d" % i for i in range(self.members))
                 if self.members > 1 else "")
        # its worker on a CPU of its own where there is one (not CPU 1, the measured one)
        worker_cpu = 2 if (os.cpu_count() or 1) >= 3 else bl.CONTROL_CPU
        return ("dpdk:\n  lcores: \"0@%d,1@%d\"\n  hugepages: false\n  memory_mb: 512\n"
                "  file_prefix: %s\ncontrol:\n  socket: %s\n  socket_group: root\nports:\n%s%s"
                % (bl.CONTROL_CPU, worker_cpu, self.prefix, self.sock, ports, bonds))

    def start(self, timeout=60):
        for f in self.memifs + [self.sock]:
            if os.path.exists(f):
                os.unlink(f)
        shutil.rmtree("/var/run/dpdk/" + self.prefix, ignore_errors=True)
        with open(self.conf, "w") as f:
            f.write(self.config())
        with open(self.logfile, "w") as out:
            self.proc = subprocess.Popen([self.p.daemon, "-c", self.conf], stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while not all(os.path.exists(f) for f in self.memifs + [self.sock]):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise OSError("the partner did not start: %s" %
                              open(self.logfile).read().strip().splitlines()[-3:])
            time.sleep(0.1)

    def probe(self):
        """bench.py asks a program's gen for the CPUs' distance: not
        measured here."""
        return None


class FwdMemif(bl.Fwd):
    """fwd l3 16 routes out of one port "sink" over net_memif to the
    partner's plain port: the members' PMD without the bond."""

    MEMBERS = 1
    zero_when_forwarding = True   # callgrind.py: count once the frames leave

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.gen = Partner(self.p, self.name, self.MEMBERS)

    def source(self):
        return bl.source(self.pcaps)

    def sink_ports(self):
        return "  - { name: sink, device: \"%s\", mode: l3, addresses: [%s] }\n" % (
            self.gen.device(0, "client"), bl.SINK_NET)

    def config(self):
        text = super().config()
        head, rest = text.split("ports:\n")
        src_line = rest.splitlines()[0]
        routes = rest[rest.index("routes:\n"):]
        return head + "ports:\n%s\n%s%s" % (src_line, self.sink_ports(), routes)


class FwdBond(FwdMemif):
    """fwd l3 16 routes out of bond "sink" over members m0 and m1, LACP
    with the partner's bond, hash l34; counts once both distribute."""

    MEMBERS = 2

    def sink_ports(self):
        return "".join("  - { name: m%d, device: \"%s\" }\n" % (i, self.gen.device(i, "client"))
                       for i in range(2)) + (
            "bonds:\n  - { name: sink, members: [m0, m1], hash: l34, addresses: [%s] }\n" %
            bl.SINK_NET)

    def distributing(self):
        r = self.fwdctl("-j", "bond", "show", "sink", timeout=10)
        return json.loads(r.stdout)["bonds"][0]["distributing"] if r.returncode == 0 else 0

    def wait_forwarding(self, timeout=60):
        deadline = time.monotonic() + timeout
        n = 0
        while time.monotonic() < deadline and self.alive():
            try:
                n = self.distributing()
            except (OSError, ValueError, KeyError, IndexError, subprocess.SubprocessError):
                n = 0
            if n == 2:
                return super().wait_forwarding(max(1, deadline - time.monotonic()))
            time.sleep(0.5)
        self.error = "%d of the bond's 2 members distributing after %ds" % (n, timeout)
        return False

    def member_tx(self):
        """tx packets of m0 and m1 (the l34 hash's spread)."""
        ports = {p["name"]: p for p in self.stats()["ports"]}
        return [ports[m]["tx_packets"] for m in ("m0", "m1")]


def spread_error(tx):
    """Why a run of the bond of 2 is not the two-member figure, or None:
    the l34 hash over the bench's 2,048 flows must put frames on both."""
    idle = [i for i, n in enumerate(tx) if n == 0]
    return "member m%d sent nothing: not two members distributing" % idle[0] if idle else None


def group_bond(p):
    return [bl.Fwd(p, "fwd-16-bond", "fwd l3 16 routes", p.pcap64, "l3"),
            FwdMemif(p, "fwd-memif-bond", "fwd l3 out of one memif", p.pcap64, "l3"),
            FwdBond(p, "fwd-bond-bond", "fwd l3 out of a bond of 2", p.pcap64, "l3")]


def run_bond(p, results, bench):
    l2vlan.run(p, results, bench, "bond", lambda: group_bond(p))


l2vlan.RATIOS["bond"] = ("bond/port", "fwd-bond-bond", "fwd-16-bond")


def print_group(results, bench):
    l2vlan.print_group(results, bench, "bond", "Bond 64 B")


def targets(ratio_at_least):
    return [ratio_at_least("fwd l3 out of a 2-member bond >= 0.95x one port", "bond/port", 0.95,
                           "bond")]
