# SPDX-License-Identifier: BSD-3-Clause
"""What bench.py and callgrind.py share: the traffic and tables, hugepages,
and the three programs under test (dpdk-testpmd, DPDK's l3fwd, fwd-daemon)
started on the same lcores with the same source and sink, each able to
pause (SIGSTOP), resume and report the sink's packet count.
"""
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PY = "/usr/bin/python3"

LCORES = "0-1"          # lcore 0: main/control, lcore 1: the one forwarding core
FORWARDING_LCORE = "1"
MBUFS = 8191
MEMORY_MB = 512
MBUF_KIB = 2.5          # an mbuf of the default size in its pool, rounded up
FLOWS = int(os.environ.get("BENCH_FLOWS", "2048"))
FULL_ROUTES = int(os.environ.get("BENCH_FULL_ROUTES", "1000000"))
HUGEPAGES = os.environ.get("BENCH_HUGEPAGES", "1") != "0"

SRC_NET, SINK_NET = "198.18.0.1/24", "198.19.0.1/24"
GATEWAYS = ["198.19.0.2", "198.19.0.3", "198.19.0.4", "198.19.0.5"]
GATEWAY_MAC = "02:00:00:00:00:%02x"
L3FWD_DEST_MAC = "02:00:00:00:00:02"
# 16 routes covering all unicast space (0/1, 128/2, 192/3): the same
# forwarding decision for every flow, through a route, never a connected subnet
COVER = (["%d.0.0.0/4" % (16 * i) for i in range(12)] +
         ["%d.0.0.0/5" % (192 + 8 * i) for i in range(4)])

# The IPv6 group: l3fwd's own default IPv6 table (l3fwd_route.h,
# lpm_default_v6.cfg: 2001:200:0:N::/64 to port N; it installs those of the
# ports it runs, N = 0 and 1), and the same 16 prefixes in fwd, every one via
# one of 4 gateways with static neighbours on the sink port. The traffic
# (gen_pcap6.py) goes to 2001:200:0:1::/64: l3fwd's port 1, fwd's sink.
V6_ROUTES = [str(ipaddress.ip_network("2001:200:0:%x::/64" % n)) for n in range(16)]
SRC_NET6, SINK_NET6 = "2001:db8::1/64", "2001:db8:1::1/64"
GATEWAYS6 = ["2001:db8:1::%d" % (2 + i) for i in range(4)]


PCAP_PORT_MAC = "02:70:63:61:70:00"   # net_pcap's first port (gen_pcap.py)
CONTROL_CPU = 0       # where the bench itself, fwdctl and route_churn run


def pin_to_control_cpu():
    """Keep the harness (and the tools it runs) off the forwarding core;
    the programs under test get every CPU back and pin their own lcores."""
    os.sched_setaffinity(0, {CONTROL_CPU})


def all_cpus():
    os.sched_setaffinity(0, range(os.cpu_count()))


def log(msg):
    print(msg, flush=True)


def die(msg):
    log("bench: " + msg)
    sys.exit(1)


class Paths:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.out = os.path.join(self.build, "bench")
        self.run = os.path.join(self.out, "run")
        self.daemon = os.path.join(self.build, "fwd-daemon")
        self.fwdctl = os.path.join(self.build, "fwdctl")
        self.churn = os.path.join(self.out, "route_churn")
        self.flowgen = os.path.join(self.out, "flowgen")
        self.xcpu = os.path.join(self.out, "xcpu")
        self.l3fwd = os.path.join(self.out, "l3fwd", "build", "l3fwd")
        self.l3fwd_static = self.l3fwd + "-static"    # the same, DPDK linked in as in fwd
        self.table = os.path.join(self.out, "full-%d.txt" % FULL_ROUTES)
        self.traffic = os.path.join(self.out, "traffic-%d" % FLOWS)
        self.pcap64 = os.path.join(self.traffic, "64.pcap")
        self.pcap_imix = os.path.join(self.traffic, "imix.pcap")
        self.traffic_routes = os.path.join(self.traffic, "traffic.txt")
        self.pcap62v6 = os.path.join(self.traffic, "62v6.pcap")
        os.makedirs(self.run, exist_ok=True)


def prepare_inputs(p):
    """The full table and the pcaps, generated once and kept in build/bench."""
    for f in (p.daemon, p.fwdctl, p.l3fwd, p.l3fwd_static, p.flowgen, p.xcpu):
        if not os.access(f, os.X_OK):
            die("%s missing: run 'make bench'" % f)
    if not os.path.exists(p.table):
        log("generating a %d-route table ..." % FULL_ROUTES)
        with open(p.table + ".tmp", "w") as f:
            subprocess.run([PY, os.path.join(ROOT, "tests/bench/gen_routes.py"),
                            str(FULL_ROUTES)] + GATEWAYS, stdout=f, check=True)
        os.rename(p.table + ".tmp", p.table)
    if not os.path.exists(p.traffic_routes):
        log("generating traffic: %d flows, 64 B and IMIX ..." % FLOWS)
        os.makedirs(p.traffic, exist_ok=True)
        subprocess.run([PY, os.path.join(ROOT, "tests/bench/gen_pcap.py"), p.table, str(FLOWS),
                        p.traffic], check=True)
    if not os.path.exists(p.pcap62v6):
        log("generating IPv6 traffic: %d flows, 62 B ..." % FLOWS)
        subprocess.run([PY, os.path.join(ROOT, "tests/bench/gen_pcap6.py"), str(FLOWS),
                        p.pcap62v6 + ".tmp"], check=True)
        os.rename(p.pcap62v6 + ".tmp", p.pcap62v6)
    rules = os.path.join(p.out, "l3fwd-v4.cfg")
    with open(rules, "w") as f:
        f.write("".join("R%s 1\n" % c for c in COVER))
    with open(os.path.join(p.out, "l3fwd-v6.cfg"), "w") as f:
        f.write("R2001:db8::/32 1\n")
    with open(os.path.join(p.out, "l3fwd-v6-default.cfg"), "w") as f:
        f.write("".join("R%s %d\n" % (r, n) for n, r in enumerate(V6_ROUTES)))


def flows_pcaps(p, count, files=1):
    """The pcap(s) of `count` distinct destinations over the full table
    (gen_flows.py), dealt into `files` files (one per rx queue), made once
    and kept in build/bench/flows."""
    d = os.path.join(p.out, "flows")
    os.makedirs(d, exist_ok=True)
    base = os.path.join(d, "64-%d%s.pcap" % (count, "-q%d" % files if files > 1 else ""))
    paths = [base] if files == 1 else [base[:-5] + ".%d.pcap" % i for i in range(files)]
    if not all(os.path.exists(f) for f in paths):
        log("generating traffic: %d destinations, 64 B%s ..." %
            (count, ", %d files" % files if files > 1 else ""))
        subprocess.run([PY, os.path.join(ROOT, "tests/bench/gen_flows.py"), p.table, str(count),
                        base] + ([str(files)] if files > 1 else []), check=True)
    return paths


# ---------------------------------------------------------------- hugepages
class Hugepages:
    """Reserve 2 MiB pages for the run and give back what we added, unless
    someone else changed the count meanwhile. The count before is kept in
    run/nr_hugepages until restored, so a run that was killed outright is
    cleaned up by the next one."""
    SYS = "/proc/sys/vm/nr_hugepages"

    def __init__(self, paths):
        self.saved = os.path.join(paths.run, "nr_hugepages")
        self.orig = self.set_to = None
        try:
            self.orig, self.set_to = [int(x) for x in open(self.saved).read().split()]
        except (OSError, ValueError):
            pass

    def up(self, pages):
        if not HUGEPAGES:
            return
        cur = int(open(self.SYS).read())
        if self.orig is None or cur != self.set_to:
            self.orig = cur
        if cur < pages:
            with open(self.SYS, "w") as f:
                f.write(str(pages))
        self.set_to = int(open(self.SYS).read())
        with open(self.saved, "w") as f:
            f.write("%d %d\n" % (self.orig, self.set_to))
        free = int([line.split()[1] for line in open("/proc/meminfo")
                    if line.startswith("HugePages_Free")][0])
        if free < pages * 0.9:
            die("only %d free hugepages (wanted %d); BENCH_HUGEPAGES=0 runs without" %
                (free, pages))

    def down(self):
        if self.set_to is not None and int(open(self.SYS).read()) == self.set_to:
            with open(self.SYS, "w") as f:
                f.write(str(self.orig))
        self.set_to = None
        if os.path.exists(self.saved):
            os.unlink(self.saved)


# ---------------------------------------------------------------- processes
STARTED = []   # every Program started, so the cleanup can reach them all
PIDFILE = None  # and their pids on disk, for a run that was killed outright


def cleanup_all():
    for prog in list(STARTED):
        prog.stop()
    save_pids()


def save_pids():
    if PIDFILE is not None:
        with open(PIDFILE, "w") as f:
            f.write("%d\n" % os.getpid())
            f.write("".join("%d\n" % pid for prog in STARTED for pid in prog.pids()))


def reap_leftovers(paths):
    """Stop programs an earlier, killed run left behind: by the pids it
    recorded (the first is that run's own), and only if they still are
    bench programs."""
    global PIDFILE
    pidfile = os.path.join(paths.run, "pids")
    try:
        pids = [int(x) for x in open(pidfile).read().split()]
    except (OSError, ValueError):
        pids = []
    if pids and os.path.exists("/proc/%d" % pids[0]) and "bench" in \
            open("/proc/%d/cmdline" % pids[0], "rb").read().decode(errors="replace"):
        die("another bench run (pid %d) is using %s" % (pids[0], paths.run))
    PIDFILE = pidfile
    for pid in pids[1:]:
        try:
            cmdline = open("/proc/%d/cmdline" % pid, "rb").read().decode(errors="replace")
        except OSError:
            continue
        if "fwdbench-" in cmdline or paths.run in cmdline:
            log("stopping pid %d left by an earlier run" % pid)
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGKILL)
    save_pids()


def eal_memory_args(huge, memory_mb=MEMORY_MB):
    if huge:
        return ["--in-memory", "-m", str(memory_mb)]
    return ["--no-huge", "--no-shconf", "-m", str(2 * memory_mb)]


def source(pcaps):
    """The net_pcap source: one rx queue per pcap file."""
    return "net_pcap0,%s,infinite_rx=1" % ",".join("rx_pcap=" + f for f in pcaps)


class HotSource:
    """The flows group's hot source: flowgen (tests/bench/flowgen.c) replays
    a pcap into a net_memif ring on CPU 0, and the program under test reads
    it as a memif client. A NIC writes each frame into the last-level cache
    (DDIO); net_pcap's infinite_rx copies it out of an mbuf of its own, cold
    when there are a million of them. It runs, pauses and stops with its
    program."""

    MEMORY_MB = 128

    def __init__(self, paths, name, pcap, huge):
        self.p, self.pcap, self.huge = paths, pcap, huge
        self.prefix = "fwdbench-%s-gen" % name
        self.sock = os.path.join(paths.run, name + ".memif")
        self.logfile = os.path.join(paths.run, name + "-gen.log")
        self.proc = None

    def device(self):
        # the MAC of net_pcap's first port, which the pcaps are addressed to
        return "net_memif0,role=client,socket=%s,socket-abstract=no,mac=%s" % (self.sock,
                                                                               PCAP_PORT_MAC)

    def start(self, timeout=60):
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        shutil.rmtree("/var/run/dpdk/" + self.prefix, ignore_errors=True)
        cmd = ([self.p.flowgen, "-l", str(CONTROL_CPU), "--file-prefix", self.prefix, "--no-pci"] +
               eal_memory_args(self.huge, self.MEMORY_MB) +
               ["--vdev", "net_memif0,role=server,socket=%s,socket-abstract=no" % self.sock,
                "--", self.pcap])
        with open(self.logfile, "w") as out:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while not os.path.exists(self.sock):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise OSError("flowgen did not start: %s" %
                              open(self.logfile).read().strip().splitlines()[-1:])
            time.sleep(0.1)

    def probe(self, ms=20):
        """ns of a cache line's round trip between the source's CPU and the
        program's, now (xcpu.c); None if it could not tell."""
        try:
            r = subprocess.run([self.p.xcpu, str(CONTROL_CPU), FORWARDING_LCORE, str(ms)],
                               capture_output=True, text=True, timeout=10)
            return float(r.stdout) if r.returncode == 0 else None
        except (subprocess.SubprocessError, ValueError):
            return None

    def signal(self, sig):
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def stop(self, timeout=10):
        """Before its client: memif's server may fault on a ring whose
        client has gone."""
        if self.proc is None:
            return
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
        shutil.rmtree("/var/run/dpdk/" + self.prefix, ignore_errors=True)


def worker_lcores(workers, shared_cpu):
    """Lcores 1..workers, each on its own CPU (lcore n on CPU n), or all on
    CPU 1 (shared_cpu: only to prove the scaling group runs on a small
    machine; its figures mean nothing)."""
    if shared_cpu:
        return ["%d@1" % i for i in range(1, workers + 1)]
    return ["%d" % i for i in range(1, workers + 1)]


class Sample:
    """Counters at one moment: t (s), rx (source port), tx (sink port, as the
    program counts it), sink (the sink PMD's own count), drops."""

    def __init__(self, t, rx, tx, sink, drops, reasons=None):
        self.t, self.rx, self.tx, self.sink, self.drops = t, rx, tx, sink, drops
        self.reasons = reasons or {}


class Program:
    """One program under test on the bench lcores; a subclass gives its
    command line and sample()."""

    def __init__(self, paths, name, label, pcap, burst=32, wrapper=None, extra_mbufs=0,
                 workers=1, shared_cpu=False, hot=False):
        """pcap: a file, or a list of them (one rx queue of the source each);
        extra_mbufs: as many mbufs more in the pool (a pcap of that many
        packets, which net_pcap keeps in mbufs); workers: forwarding lcores
        (1..workers), shared_cpu: all of them on CPU 1; hot: the pcap (one)
        comes from a HotSource instead of net_pcap."""
        self.p, self.name, self.label, self.burst = paths, name, label, burst
        self.pcaps = list(pcap) if isinstance(pcap, (list, tuple)) else [pcap]
        self.extra_mbufs, self.workers, self.shared_cpu = extra_mbufs, workers, shared_cpu
        self.memory_mb = MEMORY_MB + int(extra_mbufs * MBUF_KIB / 1024 + 1) * bool(extra_mbufs)
        self.env = None
        self.prefix = "fwdbench-" + name
        self.logfile = os.path.join(paths.run, name + ".log")
        self.wrapper = wrapper or []
        self.huge = HUGEPAGES and not self.wrapper   # valgrind runs without hugepages
        self.proc = None
        self.error = None
        self.gen = HotSource(paths, name, self.pcaps[0], self.huge) if hot else None

    def command(self):
        raise NotImplementedError

    def source(self):
        return self.gen.device() if self.gen else source(self.pcaps)

    def vdevs(self):
        return ["--vdev", self.source(), "--vdev", "net_null0,no-rx=1"]

    def pids(self):
        return [x.proc.pid for x in (self, self.gen) if x is not None and x.proc is not None]

    def start(self):
        self.remove_runtime_dir()
        if self.gen:
            self.gen.start()
        with open(self.logfile, "w") as out:
            self.proc = subprocess.Popen(self.wrapper + self.command(), stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                         start_new_session=True, preexec_fn=all_cpus)
        STARTED.append(self)
        save_pids()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n=15):
        try:
            return "".join(open(self.logfile).readlines()[-n:])
        except OSError:
            return ""

    def wait_forwarding(self, timeout=60):
        """Wait until the sink count grows; False (and self.error) if not."""
        deadline = time.monotonic() + timeout
        first = None
        while time.monotonic() < deadline:
            if not self.alive():
                self.error = "exited (%s)" % self.proc.returncode
                return False
            s = self.try_sample()
            if s is not None:
                if first is not None and s.tx > first.tx:
                    return True
                first = first or s
            time.sleep(0.2)
        self.error = "not forwarding after %ds" % timeout
        return False

    def try_sample(self):
        try:
            return self.sample()
        except (OSError, ValueError, KeyError, IndexError, subprocess.SubprocessError):
            return None

    def pause(self):
        if self.alive():
            os.kill(self.proc.pid, signal.SIGSTOP)
        if self.gen:
            self.gen.signal(signal.SIGSTOP)

    def resume(self):
        if self.gen:
            self.gen.signal(signal.SIGCONT)
        if self.alive():
            os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self, timeout=20):
        if self.gen:
            self.gen.stop()
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self in STARTED:
            STARTED.remove(self)
            save_pids()
        self.remove_runtime_dir()

    def remove_runtime_dir(self):
        shutil.rmtree("/var/run/dpdk/" + self.prefix, ignore_errors=True)


class Telemetry:
    """DPDK telemetry v2 client (/var/run/dpdk/PREFIX/dpdk_telemetry.v2)."""

    def __init__(self, prefix):
        self.path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
        self.sock = None

    def query(self, cmd):
        if self.sock is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.settimeout(5)
            s.connect(self.path)
            s.recv(1024)
            self.sock = s
        try:
            self.sock.send(cmd.encode())
            reply = json.loads(self.sock.recv(1 << 16))
        except (OSError, ValueError):
            self.close()
            raise
        return reply[cmd.split(",")[0]]

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class DpdkApp(Program):
    """testpmd and l3fwd: counted through telemetry, port 0 = source, 1 = sink."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.telemetry = Telemetry(self.prefix)

    def eal(self):
        return (["-l", LCORES, "--main-lcore", "0", "--file-prefix", self.prefix, "--no-pci"] +
                eal_memory_args(self.huge, self.memory_mb) + self.vdevs())

    def sample(self):
        t0 = time.monotonic()
        src = self.telemetry.query("/ethdev/stats,0")
        sink = self.telemetry.query("/ethdev/stats,1")
        t = (t0 + time.monotonic()) / 2
        drops = src["imissed"] + src["rx_nombuf"] + sink["oerrors"]
        return Sample(t, src["ipackets"], sink["opackets"], sink["opackets"], drops)

    def stop(self, timeout=20):
        self.telemetry.close()
        super().stop(timeout)


class Testpmd(DpdkApp):
    def command(self):
        # --stats-period keeps it running without a terminal (it exits on stdin EOF otherwise)
        return (["dpdk-testpmd"] + self.eal() +
                ["--", "--forward-mode=io", "--nb-cores=1", "--burst=%d" % self.burst,
                 "--total-num-mbufs=%d" % MBUFS, "--stats-period=3600"])


class L3fwd(DpdkApp):
    """LPM mode, which routes both families (by packet type: --parse-ptype)
    from the rule files; ipv6=True gives it l3fwd's default IPv6 table
    instead of the one route the IPv4 groups load."""

    def __init__(self, *args, static=False, ipv6=False, **kw):
        super().__init__(*args, **kw)
        self.binary = self.p.l3fwd_static if static else self.p.l3fwd
        self.rules6 = "l3fwd-v6-default.cfg" if ipv6 else "l3fwd-v6.cfg"
        if self.extra_mbufs:   # l3fwd.patch
            self.env = dict(os.environ, FWD_BENCH_EXTRA_MBUFS=str(self.extra_mbufs))

    def eal(self):
        # Only lcore 1, its main lcore, which forwards: with "-l 0-1" its idle
        # main lcore 0 would spin in rte_eal_mp_wait_lcore, and a busy CPU 0
        # slows CPU 1 where vCPUs share a physical core (as on the VM this was
        # written on); testpmd's and fwd's main threads sleep.
        # With more workers, lcores 1..N, each polling queue n - 1 of the
        # source (the main lcore 1 forwards too).
        args = super().eal()
        i = args.index("-l")
        args[i:i + 2] = (["-l", FORWARDING_LCORE] if self.workers == 1 and not self.shared_cpu
                         else ["--lcores", ",".join(worker_lcores(self.workers, self.shared_cpu))])
        i = args.index("--main-lcore")
        del args[i:i + 2]
        return args

    def command(self):
        out = self.p.out
        config = ",".join("(0,%d,%d)" % (q, q + 1) for q in range(self.workers))
        return ([self.binary] + self.eal() +
                ["--", "-p", "0x3", "--config=" + config, "--lookup=lpm", "--parse-ptype",
                 "--rule_ipv4=" + os.path.join(out, "l3fwd-v4.cfg"),
                 "--rule_ipv6=" + os.path.join(out, self.rules6),
                 "--eth-dest=1,%s" % L3FWD_DEST_MAC])


# The acl group's many flows: eight times the 8,192 verdicts a worker's ACL
# cache holds (daemon/acl/acl_cache.h), so that nearly every packet misses.
ACL_NEW_FLOWS = 65536


def acl_config(n):
    """acls: one ACL of n rules for the ACL group: n - 1 that the traffic
    does not match (UDP and TCP from 100.64/10 sources, one port range
    each: prefixes and ranges all different, as an edge list is), then a
    permit of UDP, the first rule the traffic (UDP from SOURCES) matches;
    the default denies."""
    if n == 0:
        return ""
    rules = "".join("      - { action: deny, proto: %s, src: 100.%d.%d.0/24, dport: \"%d-%d\" }\n"
                    % ("udp" if i % 2 else "tcp", 64 + i // 256 % 64, i % 256, i % 60000,
                       i % 60000 + 99) for i in range(n - 1))
    return ("acls:\n  - name: bench\n    default: deny\n    rules:\n%s"
            "      - { action: permit, proto: udp }\n" % rules)


class Fwd(Program):
    """fwd-daemon in xconnect mode, or routing (l3) with the 16 covering routes
    and static neighbours (ecmp=True: each route over all four gateways, an
    ECMP group), optionally with the full table loaded on top; or,
    ipv6=True, routing IPv6 only: an IPv6 address on each port, the 16
    V6_ROUTES via GATEWAYS6 and their static neighbours (so no NDP).
    acl_rules=N: an ACL of N rules on the source port's acl_in, whose last
    rule is the first to match the traffic (acl_config)."""

    def __init__(self, paths, name, label, pcap, mode, burst=32, full_table=False, wrapper=None,
                 ipv6=False, ecmp=False, daemon=None, acl_rules=0, **kw):
        super().__init__(paths, name, label, pcap, burst, wrapper, **kw)
        self.daemon = daemon   # another fwd-daemon binary (BENCH_FWD_ALT)
        self.mode, self.full_table, self.ipv6, self.ecmp = mode, full_table, ipv6, ecmp
        self.acl_rules = acl_rules
        self.sock = os.path.join(paths.run, name + ".sock")
        self.conf = os.path.join(paths.run, name + ".yaml")
        self.load_seconds = None

    def config(self):
        hp = "true" if self.huge else "false"
        mem = self.memory_mb if hp == "true" else 2 * self.memory_mb
        lcores = LCORES
        if self.workers > 1 or self.shared_cpu:
            lcores = ",".join(["0@0" if self.shared_cpu else "0"] +
                              worker_lcores(self.workers, self.shared_cpu))
        head = ("dpdk:\n  lcores: \"%s\"\n  hugepages: %s\n  memory_mb: %d\n"
                "  file_prefix: %s\ndataplane:\n  burst: %d\n  mbufs: %d\n"
                "control:\n  socket: %s\n  socket_group: root\nports:\n" %
                (lcores, hp, mem, self.prefix, self.burst, MBUFS + self.extra_mbufs, self.sock))
        src = self.source()
        rxq = ", rx_queues: %d" % len(self.pcaps) if len(self.pcaps) > 1 else ""
        sink = "net_null0,no-rx=1"
        if self.mode == "xconnect":
            return head + (
                "  - { name: src, device: \"%s\"%s, mode: xconnect, peer: sink }\n"
                "  - { name: sink, device: \"%s\", mode: xconnect, peer: src }\n" %
                (src, rxq, sink))
        prefixes, gateways, nets = COVER, GATEWAYS, (SRC_NET, SINK_NET)
        if self.ipv6:   # quoted: plain scalars with colons read as mappings in some parsers
            prefixes, gateways, nets = (['"%s"' % x for x in v]
                                        for v in (V6_ROUTES, GATEWAYS6, (SRC_NET6, SINK_NET6)))
        # ecmp: every route over all the gateways, one 4-way group
        routes = "".join("  - { prefix: %s, via: %s }\n" %
                         (c, "[%s]" % ", ".join(gateways) if self.ecmp
                          else gateways[i % len(gateways)])
                         for i, c in enumerate(prefixes))
        neigh = "".join("  - { address: %s, mac: \"%s\", port: sink }\n" %
                        (g, GATEWAY_MAC % (2 + i)) for i, g in enumerate(gateways))
        acl = ", acl_in: bench" if self.acl_rules else ""
        return head + (
            "  - { name: src, device: \"%s\"%s, mode: l3, addresses: [%s]%s }\n"
            "  - { name: sink, device: \"%s\", mode: l3, addresses: [%s] }\n"
            "routes:\n%sneighbors:\n%s%s" % (src, rxq, nets[0], acl, sink, nets[1], routes,
                                             neigh, acl_config(self.acl_rules)))

    def command(self):
        with open(self.conf, "w") as f:
            f.write(self.config())
        if os.path.exists(self.sock):   # left by a run that was killed
            os.unlink(self.sock)
        return [self.daemon or self.p.daemon, "-c", self.conf]

    def fwdctl(self, *args, timeout=30):
        return subprocess.run([self.p.fwdctl, "-s", self.sock] + list(args), capture_output=True,
                              text=True, timeout=timeout)

    def stats(self):
        r = self.fwdctl("-j", "stats", timeout=10)
        if r.returncode != 0:
            raise OSError(r.stderr.strip())
        return json.loads(r.stdout)

    def sample(self):
        d = self.stats()
        ports = {p["name"]: p for p in d["ports"]}
        src, sink = ports["src"], ports["sink"]
        xs = {x["name"]: x["value"] for x in sink["xstats"]}
        # VLAN interfaces (the vlan group's src.100) count their own rx and drops
        every = d["ports"] + d.get("interfaces", [])
        reasons = {}
        for p in every:
            for r in p.get("drop_reasons", []):
                key = "%s:%s" % (p["name"], r["name"])
                reasons[key] = reasons.get(key, 0) + r["value"]
        drops = sum(p.get("drops", 0) for p in every)
        rx = src["rx_packets"] + sum(p.get("rx_packets", 0) for p in d.get("interfaces", [])
                                     if p["name"].startswith("src."))
        return Sample(d["timestamp_ms"] / 1000.0, rx, sink["tx_packets"],
                      xs.get("tx_good_packets", sink["tx_packets"]), drops, reasons)

    def wait_forwarding(self, timeout=60):
        if not super().wait_forwarding(timeout):
            s = self.try_sample()   # what became of the packets it received
            if s is not None and s.drops:
                self.error += "; rx %d, tx %d, drops %s" % (s.rx, s.tx, s.reasons)
            return False
        if self.full_table:
            if self.gen:   # its spinning on the control thread's CPU would slow the load 3x
                self.gen.signal(signal.SIGSTOP)
            t0 = time.monotonic()
            r = self.fwdctl("route", "load", self.p.table, timeout=600)
            if self.gen:
                self.gen.signal(signal.SIGCONT)
            if r.returncode != 0:
                self.error = "route load: " + (r.stderr or r.stdout).strip()
                return False
            self.load_seconds = time.monotonic() - t0
            routes = json.loads(self.fwdctl("-j", "status").stdout)["routes"]
            log("  %s: loaded %d routes in %.1f s (%s)" %
                (self.name, routes, self.load_seconds, r.stdout.strip()))
        return True


def start_all(programs, timeout=60):
    """Start each program in turn, wait until it forwards, pause it. Returns
    the ones that work; the others are reported and stopped."""
    ok = []
    for prog in programs:
        log("  starting %s ..." % prog.label)
        prog.start()
        if prog.wait_forwarding(timeout):
            prog.pause()
            ok.append(prog)
        else:
            log("  %s: FAILED: %s; log %s:\n%s" % (prog.label, prog.error, prog.logfile,
                                                    prog.log_tail()))
            prog.stop()
    return ok


def install_signal_handlers():
    def on_signal(sig, frame):
        raise SystemExit(128 + sig)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
