#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""make bench-e2e: fwd end to end beside the Linux kernel router.

    tests/bench/e2e.py BUILD_DIR

The topology of `make bench-iperf` (tests/bench/iperf.py), in namespaces
of its own (fwde2e-*):

    client h1 v1 ---veth--- d1 [fw: the router] d2 ---veth--- v2 h2 server
    10.61.1.2                10.61.1.1  10.61.2.1                10.61.2.2

offloads off on every veth end, IPv6 off, the hosts' gateways static
neighbours at the router ports' MACs. Three routers take turns in fw:

  kernel      Linux itself: the gateway addresses on d1 and d2 and
              net.ipv4.ip_forward=1 in fw (removed again after the run)
  fwd af_xdp  fwd-daemon, l3 ports on net_af_xdp over d1 and d2
  fwd af_packet  the same on net_af_packet

fwd runs as in bench-iperf: lcore 0 control on CPU 0, lcore 1 the one
worker on CPU 1, burst 32, 1024 descriptors, started fresh for each run
(release build, hugepages unless BENCH_HUGEPAGES=0).

On each router, once a ping h1 -> h2 passes:
  ping    E2E_PINGS echo requests h1 -> h2 5 ms apart: p50 and p99 RTT,
          the router's own latency with next to no load;
  iperf3  TCP h1 -> h2 for E2E_IPERF_SECONDS: the receiver's Gbit/s and
          the sender's retransmits, and where the segments were lost:
          the kernel's drop counters of every veth end (sysfs, ethtool -S)
          and fwd's own, read or cleared around the run (af_packet's ring
          drops are counted only in the socket, tp_drops, which DPDK 22.11
          does not report: none of these moves for them);
  wrk     HTTP/1.1 keep-alive, E2E_WRK_THREADS threads and
          E2E_WRK_CONNECTIONS connections from h1 for E2E_WRK_SECONDS,
          `wrk --latency` to nginx in h2 serving a 1 KiB page: requests/s,
          p50 and p99 latency, and the TCP retransmits and tail-loss probes
          both hosts counted meanwhile (/proc/net/snmp, netstat).
nginx (one worker process) runs in h2 only, listening on 10.61.2.2:8080,
with its config, pid, logs and temp files under a temp dir
(build/bench/e2e-run/nginx): never /etc/nginx.

Where the client and server run (E2E_PLACEMENT, comma list, each run does
every one):
  cpu0    wrk, nginx, iperf3 (client and server) on CPU 0, fwd's worker
          alone on CPU 1 (the worker owns its core, as fwd is meant to run);
  any     wrk, nginx and iperf3 on both CPUs, where the scheduler puts them
          (beside fwd's busy-polling worker on CPU 1).
The kernel router forwards in softirq on the CPU that sent the packet, so
it uses whatever CPUs the client and server run on.

During each wrk run the fwd worker thread's time on its CPU and time
runnable but waiting for it (/proc/PID/task/TID/schedstat) are kept, with
nginx's and each CPU's softirq and idle time: a busy-polling worker that
shares its CPU forwards nothing while it waits, the kernel's softirq runs
ahead of any process.

Rounds alternate the routers, rotating the order each round (A B C, B C A,
C A B, ...), E2E_ROUNDS of them. Printed per placement and router: the
median and min-max of each figure over the rounds. fwd's drop counters and
its ports' xstats after each run go into build/bench/e2e.json; each
program's log of its last run into build/bench/e2e-run/.

Knobs: E2E_ROUNDS (3), E2E_IPERF_SECONDS (5), E2E_WRK_SECONDS (5),
E2E_WRK_THREADS (2), E2E_WRK_CONNECTIONS (32), E2E_PLACEMENT (cpu0,any),
E2E_PINGS (400), E2E_ONLY (some of kernel,fwd-xdp,fwd-pkt), E2E_XDP_ARGS (extra net_af_xdp
arguments, e.g. busy_budget=0), E2E_MBUFS (fwd's dataplane.mbufs, 8191),
BENCH_HUGEPAGES (1). Exit status 1 when a router produced no result.
"""
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import iperf as ip  # noqa: E402
from benchlib import log  # noqa: E402

ROUNDS = int(os.environ.get("E2E_ROUNDS", "3"))
IPERF_SECONDS = int(os.environ.get("E2E_IPERF_SECONDS", "5"))
WRK_SECONDS = int(os.environ.get("E2E_WRK_SECONDS", "5"))
WRK_THREADS = int(os.environ.get("E2E_WRK_THREADS", "2"))
WRK_CONNECTIONS = int(os.environ.get("E2E_WRK_CONNECTIONS", "32"))
PINGS = int(os.environ.get("E2E_PINGS", "400"))
PLACEMENTS = [x for x in os.environ.get("E2E_PLACEMENT", "cpu0,any").split(",") if x]
XDP_ARGS = os.environ.get("E2E_XDP_ARGS", "")
HTTP_PORT = 8080
PAGE = "1k.html"

# our own namespaces: a bench-iperf run may go on beside this one
ip.NS.update({n: "fwde2e-" + n for n in ip.NS})
IDLE_SLEEP_US = int(os.environ.get("E2E_IDLE_SLEEP_US", "20"))
ip.SECONDS = IPERF_SECONDS
# hugepages are one count for the whole machine, which other benchmarks
# raise and lower meanwhile: without them unless asked
bl.HUGEPAGES = os.environ.get("BENCH_HUGEPAGES", "0") != "0"
bl.MBUFS = int(os.environ.get("E2E_MBUFS", str(bl.MBUFS)))
CPUS = {"cpu0": {0}, "any": set(range(os.cpu_count()))}


# ------------------------------------------------------------------ routers
class Kernel:
    """Linux as the router: addresses and forwarding on in namespace fw."""
    label, short, layer = "kernel", "kernel", 3

    def __init__(self, paths):
        self.p = paths
        self.logfile = os.path.join(paths.run, "kernel.log")

    def start(self):
        ip.nsrun("fw", "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for gw, dev in (("gw1", "d1"), ("gw2", "d2")):
            ip.run("ip", "-n", ip.NS["fw"], "addr", "add", ip.L3[gw] + "/24", "dev", dev)

    def alive(self):
        return True

    def destination(self):
        return ip.L3["h2"]

    def stats(self):
        return None

    def stop(self):
        ip.nsrun("fw", "sysctl", "-qw", "net.ipv4.ip_forward=0", check=False)
        for dev in ("d1", "d2"):
            ip.run("ip", "-n", ip.NS["fw"], "addr", "flush", "dev", dev, check=False)
            ip.run("ip", "-n", ip.NS["fw"], "neigh", "flush", "dev", dev, check=False)


class Fwd(ip.Fwd):
    """fwd-daemon routing (l3) on the bench-iperf lcores."""

    def __init__(self, paths, key, label, pmd, idle_sleep_us=0):
        super().__init__(paths, key, label, pmd, "l3")
        self.idle_sleep_us = idle_sleep_us
        self.name = "e2e-%s" % key          # its log, config and socket in e2e-run/
        self.prefix = "fwdbench-" + self.name
        self.logfile = os.path.join(paths.run, self.name + ".log")
        self.conf = os.path.join(paths.run, self.name + ".yaml")
        self.sock = os.path.join(paths.run, key + ".sock")

    def devices(self):
        devs = super().devices()
        if self.pmd == "af_xdp" and XDP_ARGS:
            devs = [d + "," + XDP_ARGS for d in devs]
        return devs

    def config(self):
        conf = super().config()
        if self.idle_sleep_us:
            conf = conf.replace("dataplane:\n", "dataplane:\n  idle_sleep_us: %d\n" %
                                self.idle_sleep_us, 1)
        return conf

    def fwdctl(self, *args, timeout=30):
        return subprocess.run([self.p.fwdctl, "-s", self.sock] + list(args), capture_output=True,
                              text=True, timeout=timeout)

    def stats(self):
        """Drops by reason, the ports' non-zero xstats, the worker's load."""
        try:
            d = json.loads(self.fwdctl("-j", "stats", timeout=10).stdout)
            w = json.loads(self.fwdctl("-j", "stats", "workers", timeout=10).stdout)
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
        out = {}
        for p in d["ports"]:
            out[p["name"]] = {
                "rx": p["rx_packets"], "tx": p["tx_packets"], "drops": p["drops"],
                "drop_reasons": {r["name"]: r["value"] for r in p["drop_reasons"] if r["value"]},
                "xstats": {x["name"]: x["value"] for x in p["xstats"]
                           if x["value"] and ("err" in x["name"] or "miss" in x["name"] or
                                              "drop" in x["name"])}}
        out["workers"] = [{"busy_pct": x.get("busy_pct"), "packets": x.get("packets"),
                           "avg_burst": x.get("avg_burst")} for x in w["workers"]]
        return out


ROUTERS = [  # key, label, class, pmd, dataplane.idle_sleep_us
    ("kernel", "kernel", Kernel, None, 0),
    ("fwd-xdp", "fwd af_xdp", Fwd, "af_xdp", 0),
    ("fwd-pkt", "fwd af_packet", Fwd, "af_packet", 0),
    ("fwd-xdp-idle", "fwd af_xdp idle", Fwd, "af_xdp", IDLE_SLEEP_US),
]
ONLY = os.environ.get("E2E_ONLY", "")
if ONLY:
    ROUTERS = [r for r in ROUTERS if r[0] in ONLY.split(",")]


def make_router(p, row):
    key, label, cls, pmd, idle = row
    return Kernel(p) if cls is Kernel else cls(p, key, label, pmd, idle)


# -------------------------------------------------------------------- nginx
NGINX_CONF = """worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    keepalive_requests 100000000;
    keepalive_timeout 65;
    server {{
        listen {addr}:{port};
        root {d}/www;
        location / {{ }}
    }}
}}
"""


class Nginx:
    """nginx in h2 alone, everything it writes under `dir`."""

    def __init__(self, paths):
        self.dir = os.path.join(paths.run, "nginx")
        self.proc = None

    def start(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(os.path.join(self.dir, "www"))
        os.makedirs(os.path.join(self.dir, "tmp"))
        with open(os.path.join(self.dir, "www", PAGE), "w") as f:
            f.write(("x" * 63 + "\n") * 16)       # 1024 bytes
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(d=self.dir, addr=ip.L3["h2"], port=HTTP_PORT))
        # its workers run as nobody: they read the page through these
        for d, _, files in os.walk(self.dir):
            os.chmod(d, 0o755)
            for name in files:
                os.chmod(os.path.join(d, name), 0o644)
        d = self.dir
        while d != "/":          # and the directories above, up to /
            d = os.path.dirname(d)
            if not os.stat(d).st_mode & 0o001:
                bl.die("%s is not searchable by others: nginx's workers could not read "
                       "the page" % d)
        with open(os.path.join(self.dir, "stdout.log"), "w") as out:
            self.proc = subprocess.Popen(
                ["ip", "netns", "exec", ip.NS["h2"], "nginx", "-e",
                 os.path.join(self.dir, "error.log"), "-p", self.dir, "-c", conf],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + 15
        while not self.listening():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                bl.die("nginx did not start: %s" % self.tail())
            time.sleep(0.1)

    def tail(self):
        try:
            return open(os.path.join(self.dir, "error.log")).read()[-500:]
        except OSError:
            return "(no error log)"

    def listening(self):
        r = ip.nsrun("h2", "ss", "-Hltn", "sport = :%d" % HTTP_PORT, timeout=10, check=False)
        return r.returncode == 0 and r.stdout.strip() != ""

    def pids(self):
        r = ip.run("ip", "netns", "pids", ip.NS["h2"], check=False)
        pids = []
        for pid in r.stdout.split():
            try:
                if open("/proc/%s/comm" % pid).read().strip() == "nginx":
                    pids.append(int(pid))
            except OSError:
                pass
        return pids

    def place(self, cpus):
        for pid in self.pids():
            try:
                os.sched_setaffinity(pid, cpus)
            except OSError:
                pass

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        for pid in self.pids():      # workers of a master that died
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


# ---------------------------------------------------------------------- wrk
UNIT_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6}


def to_us(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    return float(m.group(1)) * UNIT_US[m.group(2)] if m else None


def parse_wrk(out):
    """Requests/s, p50/p99 in µs, socket errors from wrk --latency's text."""
    res = {}
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if m:
        res["rps"] = float(m.group(1))
    for pct, key in (("50", "p50_us"), ("90", "p90_us"), ("99", "p99_us")):
        m = re.search(r"^\s+%s%%\s+(\S+)" % pct, out, re.M)
        if m:
            res[key] = to_us(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    res["socket_errors"] = sum(int(x) for x in m.groups()) if m else 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    res["bad_responses"] = int(m.group(1)) if m else 0
    return res


def tcp_counters(ns):
    """Segments retransmitted and tail-loss probes sent in namespace ns."""
    out = {}
    for path in ("/proc/net/snmp", "/proc/net/netstat"):
        lines = ip.nsrun(ns, "cat", path, check=False).stdout.splitlines()
        for head, vals in zip(lines[::2], lines[1::2]):
            names, nums = head.split()[1:], vals.split()[1:]
            proto = head.split(":")[0]
            for k, v in zip(names, nums):
                out[proto + "." + k] = int(v)
    return {"retrans": out.get("Tcp.RetransSegs", 0),
            "tlp": out.get("TcpExt.TCPLossProbes", 0)}


def link_counters():
    """The kernel's drop counters of every veth end: {"ns/if": {name: value}}
    (sysfs statistics, and ethtool -S's per-queue XDP figures), so that a
    frame lost between the hosts and fwd's rings shows where."""
    out = {}
    for ns, ifs in (("h1", ("v1",)), ("h2", ("v2",)), ("fw", ("d1", "d2"))):
        for i in ifs:
            c = {}
            for name in ("rx_dropped", "tx_dropped", "rx_missed_errors", "tx_errors"):
                r = ip.nsrun(ns, "cat", "/sys/class/net/%s/statistics/%s" % (i, name),
                             check=False)
                if r.returncode == 0 and r.stdout.strip().isdigit():
                    c[name] = int(r.stdout)
            r = ip.nsrun(ns, "ethtool", "-S", i, check=False)
            for line in r.stdout.splitlines():
                k, _, v = line.strip().partition(":")
                if ("drop" in k or "xdp" in k or "full" in k) and v.strip().isdigit():
                    c[k.strip()] = int(v)
            out["%s/%s" % (ns, i)] = c
    return out


def counter_delta(before, after):
    """The counters that moved."""
    out = {}
    for key, c in after.items():
        d = {k: v - before.get(key, {}).get(k, 0) for k, v in c.items()}
        d = {k: v for k, v in d.items() if v}
        if d:
            out[key] = d
    return out


def schedstat(tid):
    """ms on a CPU and ms runnable but waiting for one, of a thread."""
    try:
        run, wait, _ = open("/proc/%d/schedstat" % tid).read().split()
        return [int(run) / 1e6, int(wait) / 1e6]
    except (OSError, ValueError):
        return [0.0, 0.0]


def tids(pid, prefix):
    out = []
    try:
        for t in os.listdir("/proc/%d/task" % pid):
            if open("/proc/%d/task/%s/comm" % (pid, t)).read().startswith(prefix):
                out.append(int(t))
    except OSError:
        pass
    return out


def cpu_times():
    """Per CPU: ms of softirq and of idle (/proc/stat, USER_HZ ticks)."""
    hz = os.sysconf("SC_CLK_TCK")
    out = []
    for line in open("/proc/stat"):
        f = line.split()
        if f[0].startswith("cpu") and f[0] != "cpu":
            out.append([int(f[7]) * 1e3 / hz, int(f[4]) * 1e3 / hz])
    return out


class Sched:
    """Where the CPUs went during one wrk run: the fwd worker's and nginx's
    time on a CPU and waiting for one, each CPU's softirq and idle time."""

    def __init__(self, router, nginx_pids):
        proc = getattr(router, "proc", None)
        self.threads = {"fwd_worker": tids(proc.pid, "rte-worker") if proc else [],
                        "nginx": nginx_pids}
        self.t0 = self.snap()

    def snap(self):
        return ({k: [sum(x) for x in zip(*([schedstat(t) for t in v] or [[0, 0]]))]
                 for k, v in self.threads.items()}, cpu_times())

    def delta(self):
        (th1, cpu1), (th0, cpu0) = self.snap(), self.t0
        out = {}
        for k in th1:
            if self.threads[k]:
                out[k + "_run_ms"] = round(th1[k][0] - th0[k][0], 1)
                out[k + "_wait_ms"] = round(th1[k][1] - th0[k][1], 1)
        out["softirq_ms"] = [round(a[0] - b[0]) for a, b in zip(cpu1, cpu0)]
        out["idle_ms"] = [round(a[1] - b[1]) for a, b in zip(cpu1, cpu0)]
        return out


def wrk(router, logbase, nginx):
    url = "http://%s:%d/%s" % (router.destination(), HTTP_PORT, PAGE)
    before = {h: tcp_counters(h) for h in ("h1", "h2")}
    if hasattr(router, "fwdctl"):
        router.fwdctl("stats", "clear", timeout=10)
    sched = Sched(router, nginx.pids())
    try:
        r = ip.nsrun("h1", "wrk", "-t", str(WRK_THREADS), "-c", str(WRK_CONNECTIONS),
                     "-d", "%ds" % WRK_SECONDS, "--latency", url,
                     timeout=WRK_SECONDS + 30, check=False)
    except subprocess.TimeoutExpired:
        return None, "wrk did not finish within %d s" % (WRK_SECONDS + 30)
    with open(logbase + ".wrk.txt", "w") as f:
        f.write(r.stdout + r.stderr)
    res = parse_wrk(r.stdout)
    if r.returncode != 0 or "rps" not in res or res.get("p99_us") is None:
        return None, "wrk: %s" % (r.stderr or r.stdout).strip()[-200:]
    res["sched"] = sched.delta()
    after = {h: tcp_counters(h) for h in ("h1", "h2")}
    for k in ("retrans", "tlp"):
        res[k] = sum(after[h][k] - before[h][k] for h in ("h1", "h2"))
    res["fwd"] = router.stats()
    return res, None


def pings(router, logbase):
    """E2E_PINGS echo requests h1 -> h2 5 ms apart: p50 and p99 RTT in µs."""
    try:
        r = ip.nsrun("h1", "ping", "-c", str(PINGS), "-i", "0.005", "-W", "1",
                     router.destination(), timeout=PINGS * 0.05 + 30, check=False)
    except subprocess.TimeoutExpired:
        return None, "ping did not finish"
    with open(logbase + ".ping.txt", "w") as f:
        f.write(r.stdout)
    rtt = sorted(float(x) * 1e3 for x in re.findall(r"time=([\d.]+) ms", r.stdout))
    if len(rtt) < PINGS // 2:
        return None, "ping: %d of %d answered" % (len(rtt), PINGS)
    return {"p50_us": rtt[len(rtt) // 2], "p99_us": rtt[min(len(rtt) - 1, len(rtt) * 99 // 100)],
            "lost": PINGS - len(rtt)}, None


# ------------------------------------------------------------------ one run
def wait_ready(router):
    deadline = time.monotonic() + ip.START_TIMEOUT
    while time.monotonic() < deadline:
        if not router.alive():
            return "exited (%s) during start-up" % router.proc.returncode
        if ip.ping_ok(router.destination()):
            return None
        time.sleep(0.2)
    return "no ping through it within %d s" % ip.START_TIMEOUT


def one_run(p, row, nginx):
    """Every placement's iperf3 and wrk through one fresh router:
    {placement: {"iperf": res, "wrk": res}}, errors as strings."""
    router = make_router(p, row)
    out = {}
    router.start()
    try:
        err = wait_ready(router)
        if err is not None:
            if hasattr(router, "log_tail"):
                log("  %s: last lines of %s:\n%s" % (router.label, router.logfile,
                                                      router.log_tail(8)))
            return {pl: {"error": err} for pl in PLACEMENTS}
        for pl in PLACEMENTS:
            os.sched_setaffinity(0, CPUS[pl])        # iperf3 and wrk inherit it
            nginx.place(CPUS[pl])
            base = os.path.join(p.run, "%s-%s" % (row[0], pl))
            res = {}
            res["ping"], e0 = pings(router, base)
            if hasattr(router, "fwdctl"):
                router.fwdctl("stats", "clear", timeout=10)
            links = link_counters()
            res["iperf"], e1 = ip.iperf(router, base)
            if res["iperf"]:   # where the segments it retransmits were lost
                res["iperf"]["links"] = counter_delta(links, link_counters())
                res["iperf"]["fwd"] = router.stats()
            res["wrk"], e2 = wrk(router, base, nginx)
            if e0 or e1 or e2:
                res["error"] = e0 or e1 or e2
            if not router.alive():
                res["error"] = "exited during the run"
            out[pl] = res
        return out
    finally:
        bl.pin_to_control_cpu()
        router.stop()


# ------------------------------------------------------------------ summary
FIGURES = [  # part of the run, its key, heading, format
    ("ping", "p50_us", "ping p50 µs", "%.0f"),
    ("ping", "p99_us", "ping p99 µs", "%.0f"),
    ("iperf", "gbps", "iperf3 Gbit/s", "%.2f"),
    ("wrk", "rps", "wrk req/s", "%.0f"),
    ("wrk", "p50_us", "wrk p50 µs", "%.0f"),
    ("wrk", "p99_us", "wrk p99 µs", "%.0f"),
]


def summarise(runs):
    s = {}
    for part, key, *_ in FIGURES:
        v = [r[part][key] for r in runs if r.get(part)]
        if v:
            s[part + "_" + key] = {"median": statistics.median(v), "min": min(v), "max": max(v),
                                   "n": len(v)}
    for key in ("retrans", "tlp", "socket_errors"):
        v = [r["wrk"][key] for r in runs if r.get("wrk")]
        if v:
            s["wrk_" + key] = statistics.median(v)
    v = [r["iperf"]["retransmits"] for r in runs if r.get("iperf")]
    if v:
        s["iperf_retransmits"] = statistics.median(v)
    # frames the kernel dropped on the router's veths during iperf3
    v = [sum(c.get("rx_dropped", 0) + c.get("tx_dropped", 0)
             for c in r["iperf"]["links"].values())
         for r in runs if r.get("iperf") and "links" in r["iperf"]]
    if v:
        s["iperf_link_drops"] = statistics.median(v)
    v = [sum(x["drops"] for k, x in r["iperf"]["fwd"].items() if k != "workers")
         for r in runs if r.get("iperf") and r["iperf"].get("fwd")]
    if v:
        s["iperf_fwd_drops"] = statistics.median(v)
    # the share of the wrk run fwd's worker spent on its CPU, and waiting for it
    v = [r["wrk"]["sched"] for r in runs if r.get("wrk") and "fwd_worker_run_ms" in
         r["wrk"]["sched"]]
    if v:
        s["worker_on_cpu_pct"] = statistics.median(
            100 * x["fwd_worker_run_ms"] / WRK_SECONDS / 1e3 for x in v)
        s["worker_waiting_pct"] = statistics.median(
            100 * x["fwd_worker_wait_ms"] / WRK_SECONDS / 1e3 for x in v)
    return s


def cell(s, part, key, fmt):
    f = s.get(part + "_" + key)
    if f is None:
        return "FAILED"
    c = (fmt + " [" + fmt + "-" + fmt + "]") % (f["median"], f["min"], f["max"])
    return c + (" %d/%d" % (f["n"], ROUNDS) if f["n"] < ROUNDS else "")


def fmt_count(v):
    return "-" if v is None else "%d" % v


def print_table(results, elapsed):
    log("\nend to end through each router, %d rounds (%.0f s): %d pings 5 ms apart, iperf3 "
        "%d s, wrk -t%d -c%d %d s (1 KiB page); median [min-max] over the rounds" %
        (ROUNDS, elapsed, PINGS, IPERF_SECONDS, WRK_THREADS, WRK_CONNECTIONS, WRK_SECONDS))
    log("load average %.2f at start, %.2f at end, on %d CPUs" %
        (results["load"]["start"], results["load"]["end"], os.cpu_count()))
    width = [24, 26, 20, 24, 22, 26]
    for pl in PLACEMENTS:
        log("\nclient and server on %s" % ("CPU 0" if pl == "cpu0" else "both CPUs"))
        log("%-16s " % "router" + "".join("%-*s" % (w, f[2]) for w, f in zip(width, FIGURES)) +
            "wrk retrans/TLP")
        for key, label, *_ in ROUTERS:
            s = results["summary"][pl][key]
            log("%-16s " % label +
                "".join("%-*s" % (w, cell(s, *f[:2], f[3])) for w, f in zip(width, FIGURES)) +
                "%s/%s" % (s.get("wrk_retrans", "-"), s.get("wrk_tlp", "-")))
        for key, label, *_ in ROUTERS:
            s = results["summary"][pl][key]
            if "iperf_retransmits" in s:
                log("  %s: iperf3 retransmitted %d segments; the kernel dropped %s frames on "
                    "the veths, %s dropped %s (medians)" %
                    (label, s["iperf_retransmits"], fmt_count(s.get("iperf_link_drops")),
                     "fwd" if "iperf_fwd_drops" in s else "the router",
                     fmt_count(s.get("iperf_fwd_drops"))))
        for key, label, *_ in ROUTERS:
            s = results["summary"][pl][key]
            if "worker_on_cpu_pct" in s:
                log("  %s: during wrk its worker ran %.0f%% of the time and waited for its "
                    "CPU %.0f%% (schedstat, medians)" % (label, s["worker_on_cpu_pct"],
                                                         s["worker_waiting_pct"]))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if os.geteuid() != 0:
        bl.die("run as root (namespaces, hugepages)")
    p = bl.Paths(sys.argv[1])
    p.run = os.path.join(p.out, "e2e-run")
    os.makedirs(p.run, exist_ok=True)
    for f in (p.daemon, p.fwdctl):
        if not os.access(f, os.X_OK):
            bl.die("%s missing: run 'make bench-e2e'" % f)
    for tool in ("iperf3", "ethtool", "ss", "ping", "wrk", "nginx"):
        if shutil.which(tool) is None and not os.access("/usr/sbin/" + tool, os.X_OK):
            bl.die(tool + " missing: run 'make bench-deps'")
    bad = [pl for pl in PLACEMENTS if pl not in CPUS]
    if bad:
        bl.die("E2E_PLACEMENT: unknown %s (cpu0, any)" % ",".join(bad))
    bl.install_signal_handlers()
    bl.reap_leftovers(p)
    bl.pin_to_control_cpu()
    huge = bl.Hugepages(p)
    nginx = Nginx(p)
    results = {"config": {"rounds": ROUNDS, "iperf_seconds": IPERF_SECONDS,
                          "wrk": [WRK_THREADS, WRK_CONNECTIONS, WRK_SECONDS],
                          "placements": PLACEMENTS, "xdp_args": XDP_ARGS, "mbufs": bl.MBUFS,
                          "hugepages": bl.HUGEPAGES, "cpus": os.cpu_count()},
               "runs": {pl: {k: [] for k, *_ in ROUTERS} for pl in PLACEMENTS},
               "load": {"start": ip.loadavg()}}
    huge_before = ip.hugepages_in_use()
    t0 = time.monotonic()
    failed = False
    try:
        ip.topology_down()
        ip.topology_up()
        huge.up(bl.MEMORY_MB // 2 + 64)
        nginx.start()
        for r in range(ROUNDS):
            order = ROUTERS[r % len(ROUTERS):] + ROUTERS[:r % len(ROUTERS)]
            line = []
            for row in order:
                res = one_run(p, row, nginx)
                for pl in PLACEMENTS:
                    results["runs"][pl][row[0]].append(res[pl])
                    x = res[pl]
                    if x.get("error"):
                        log("  %s %s: FAILED: %s" % (row[1], pl, x["error"]))
                    line.append("%s/%s %s %s" % (
                        row[0], pl,
                        "%.2fG" % x["iperf"]["gbps"] if x.get("iperf") else "-",
                        "%.0f/s p99 %.0fus" % (x["wrk"]["rps"], x["wrk"]["p99_us"])
                        if x.get("wrk") else "-"))
            log("  round %d/%d: %s" % (r + 1, ROUNDS, "; ".join(line)))
    finally:
        bl.cleanup_all()
        nginx.stop()
        ip.topology_down()
        if bl.HUGEPAGES:
            ip.wait_hugepages_released(huge_before)
        huge.down()
    results["load"]["end"] = ip.loadavg()
    results["summary"] = {pl: {k: summarise(results["runs"][pl][k]) for k, *_ in ROUTERS}
                          for pl in PLACEMENTS}
    print_table(results, time.monotonic() - t0)
    out = os.path.join(p.out, "e2e.json")
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    log("\nwrote %s" % out)
    failed = any("wrk_rps" not in results["summary"][pl][k] for pl in PLACEMENTS
                 for k, *_ in ROUTERS)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
