# SPDX-License-Identifier: BSD-3-Clause
"""Conformance topology: one router, one tester, two links.

    tester ns (fwdt<pid>-c-t)            router ns (fwdt<pid>-c-r): fwd-daemon
      t0 02:aa:00:00:00:01  <-- veth -->  r0  p0 10.20.1.1/24
      t1 02:aa:00:00:00:02  <-- veth -->  r1  p1 10.20.2.1/24, mtu 1280

The tester's interfaces have no addresses and IPv6 is off in both
namespaces, so neither kernel sends anything of its own: every frame on a
tester interface came from the daemon. Behind t0 sits "host" 10.20.1.2,
behind t1 "gateway" 10.20.2.2, both static neighbours, so no ARP is needed.
Routes: 198.51.100.0/24 via 10.20.2.2, 203.0.113.0/24 blackhole; nothing
else (192.0.2.0/24 has no route).

IPv6 (dual stack, the same ports):

      t0 fe80::aa:ff:fe00:1           <-->  r0  p0 2001:db8:20:1::1/64, fe80::ff:fe00:100
      t1 fe80::aa:ff:fe00:2           <-->  r1  p1 2001:db8:20:2::1/64, fe80::ff:fe00:200

"host6" 2001:db8:20:1::2 and t0's link-local behind t0, "gateway6"
2001:db8:20:2::2 and t1's link-local behind t1, all static neighbours. Routes: 2001:db8:51::/48 via
gateway6, 2001:db8:52::/48 via fe80::aa:ff:fe00:2 dev p1, 2001:db8:66::/48
blackhole; 2001:db8:99::/48 has no route. The fixtures wait for every
address to pass Duplicate Address Detection before they hand the router out,
so the DAD solicitations are over before any test counts frames.

The session fixture `router` builds it all, starts build/san/fwd-daemon
(BUILD or FWD_DAEMON as in tests/smoke/lib.sh) on net_af_packet ports, and
always tears down; at the end the daemon must exit 0 with no sanitizer
report. `router_xdp` is the same on net_af_xdp ports, for what af_packet
cannot carry: DPDK's af_packet PMD joins a PACKET_FANOUT group with
PACKET_FANOUT_FLAG_DEFRAG, so the kernel reassembles IP fragments (and
holds a lone one for ever) before the daemon sees them.

`router6` is `router` for the IPv6 tests, or, with FWD_REFERENCE=linux, the
Linux kernel as the router in the same topology (net.ipv6.conf.all.forwarding=1,
the same addresses, routes, static neighbours and MTUs; ICMPv6 errors not
rate-limited): the IPv6 tests run against it unchanged to show that what
they expect is what Linux does. fwd's counters do not exist there: Delta
and the state helpers answer ANY, which compares equal to everything, and
tests about fwd's own settings (the rate limit) skip.
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.environ.get("SRCDIR", os.path.abspath(os.path.join(HERE, "..", "..")))
BUILD = os.environ.get("BUILD", os.path.join(SRCDIR, "build", "san"))
FWD_DAEMON = os.environ.get("FWD_DAEMON", os.path.join(BUILD, "fwd-daemon"))
FWDCTL = os.environ.get("FWDCTL_BIN", os.path.join(BUILD, "fwdctl"))
PY = "/usr/bin/python3"

T0_MAC, T1_MAC = "02:aa:00:00:00:01", "02:aa:00:00:00:02"
R0_MAC, R1_MAC = "02:00:00:00:01:00", "02:00:00:00:02:00"
P0_ADDR, P1_ADDR = "10.20.1.1", "10.20.2.1"
HOST = "10.20.1.2"  # behind t0
GW = "10.20.2.2"  # behind t1
ROUTED = "198.51.100.0/24"
BLACKHOLE = "203.0.113.0/24"
UNROUTED = "192.0.2.10"
P1_MTU = 1280
ICMP_RATE = 100

P0_ADDR6, P1_ADDR6 = "2001:db8:20:1::1", "2001:db8:20:2::1"
HOST6 = "2001:db8:20:1::2"  # behind t0
GW6 = "2001:db8:20:2::2"  # behind t1
T0_LL, T1_LL = "fe80::aa:ff:fe00:1", "fe80::aa:ff:fe00:2"  # the testers' EUI-64 link-locals
R0_LL, R1_LL = "fe80::ff:fe00:100", "fe80::ff:fe00:200"  # the router's, from R0_MAC, R1_MAC
ROUTED6 = "2001:db8:51::/48"  # via GW6
ROUTED6_LL = "2001:db8:52::/48"  # via T1_LL dev p1
BLACKHOLE6 = "2001:db8:66::/48"
UNROUTED6 = "2001:db8:99::10"
REFERENCE = os.environ.get("FWD_REFERENCE", "")


def run(*cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=30, **kw)


def config(prefix, sock, pmd, extra=None):
    """The daemon's file; extra: {"p0": ..., "p1": ...} appended to a
    port's keys, "route" to every route's, "control": lines of that
    section, "tail": more sections."""
    x = {"p0": "", "p1": "", "route": "", "control": "", "tail": "", **(extra or {})}
    return f"""\
dpdk:
  lcores: "0-1"
  hugepages: false
  memory_mb: 512
  file_prefix: {prefix}
dataplane:
  mbufs: 8191
  icmp_rate: {ICMP_RATE}
control:
  socket: {sock}
  socket_group: root
{x["control"]}ports:
  - {{ name: p0, device: "net_{pmd}0,iface=r0", addresses: [{P0_ADDR}/24, "{P0_ADDR6}/64"]{x["p0"]} }}
  - {{ name: p1, device: "net_{pmd}1,iface=r1", addresses: [{P1_ADDR}/24, "{P1_ADDR6}/64"],
       mtu: {P1_MTU}{x["p1"]} }}
routes:
  - {{ prefix: {ROUTED}, via: {GW}{x["route"]} }}
  - {{ prefix: {BLACKHOLE}, blackhole: true{x["route"]} }}
  - {{ prefix: "{ROUTED6}", via: "{GW6}"{x["route"]} }}
  - {{ prefix: "{ROUTED6_LL}", via: "{T1_LL}", dev: p1{x["route"]} }}
  - {{ prefix: "{BLACKHOLE6}", blackhole: true{x["route"]} }}
neighbors:
  - {{ address: {HOST}, mac: "{T0_MAC}", port: p0 }}
  - {{ address: {GW}, mac: "{T1_MAC}", port: p1 }}
  - {{ address: "{HOST6}", mac: "{T0_MAC}", port: p0 }}
  - {{ address: "{GW6}", mac: "{T1_MAC}", port: p1 }}
  - {{ address: "{T0_LL}", mac: "{T0_MAC}", port: p0 }}
  - {{ address: "{T1_LL}", mac: "{T1_MAC}", port: p1 }}
{x["tail"]}"""


class Router:
    """The running topology: send frames, read counters."""

    extra = None  # config(): what a subclass adds to the daemon's file

    def __init__(self, tmp, prefix, pmd):
        self.tmp = tmp
        self.prefix = prefix
        self.pmd = pmd
        self.ns_r = f"{prefix}-r"
        self.ns_t = f"{prefix}-t"
        self.sock = os.path.join(tmp, "fwd.sock")
        self.daemon = None
        self.log = None
        self.mac = {}

    # ------------------------------------------------------------ set-up
    def build(self):
        for ns in (self.ns_r, self.ns_t):
            run("ip", "netns", "add", ns)
            for key in ("all", "default"):
                run("ip", "netns", "exec", ns, "sysctl", "-qw",
                    f"net.ipv6.conf.{key}.disable_ipv6=1")
            run("ip", "-n", ns, "link", "set", "lo", "up")
        for t, r, tmac, rmac in (("t0", "r0", T0_MAC, R0_MAC), ("t1", "r1", T1_MAC, R1_MAC)):
            run("ip", "link", "add", t, "netns", self.ns_t, "address", tmac, "type", "veth",
                "peer", "name", r, "netns", self.ns_r, "address", rmac)
            for ns, dev in ((self.ns_t, t), (self.ns_r, r)):
                run("ip", "netns", "exec", ns, "ethtool", "-K", dev, "tx", "off", "tso", "off",
                    "gso", "off", "gro", "off", "rx", "off", check=False)
                run("ip", "-n", ns, "link", "set", dev, "up")

    def start(self):
        cfg = os.path.join(self.tmp, "fwd.yaml")
        with open(cfg, "w") as f:
            f.write(config(self.prefix, self.sock, self.pmd, self.extra))
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "detect_leaks=1") +
                               f":abort_on_error=0:log_path={self.tmp}/asan")
        env["LSAN_OPTIONS"] = (f"suppressions={SRCDIR}/tests/lsan.supp:print_suppressions=0")
        env["UBSAN_OPTIONS"] = f"print_stacktrace=1:log_path={self.tmp}/ubsan"
        self.log = open(os.path.join(self.tmp, "daemon.log"), "w")
        self.daemon = subprocess.Popen(
            ["ip", "netns", "exec", self.ns_r, FWD_DAEMON, "-c", cfg, "--log-level", "info"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.daemon.poll() is not None:
                pytest.fail("daemon exited during start-up:\n" + self.daemon_log())
            if os.path.exists(self.sock) and self.ctl("status", check=False).returncode == 0:
                break
            time.sleep(0.1)
        else:
            pytest.fail("daemon did not answer within 30 s:\n" + self.daemon_log())
        for p in ("p0", "p1"):
            self.mac[p] = json.loads(self.ctl("-j", "port", "show", p).stdout)["mac"]
        self.wait_dad()

    def wait_dad(self, timeout=10):
        """Until no address of the router is tentative (DAD: 1 s and a bit)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            states = [a.get("state", "") for a in self.addresses()]
            if states and "tentative" not in states:
                return
            time.sleep(0.1)
        pytest.fail(f"addresses still tentative after {timeout} s: {self.addresses()}")

    def stop(self):
        """SIGTERM; returns a list of problems (empty when it exited 0, clean)."""
        problems = []
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
                problems.append("daemon did not stop within 15 s of SIGTERM")
        if self.daemon is not None and self.daemon.returncode != 0:
            problems.append(f"daemon exited with status {self.daemon.returncode}")
        for path in sorted(glob.glob(f"{self.tmp}/asan.*") + glob.glob(f"{self.tmp}/ubsan.*")):
            with open(path) as f:
                problems.append("sanitizer report:\n" + f.read()[:6000])
        if self.log is not None:
            self.log.close()
        return problems

    def destroy(self):
        for ns in (self.ns_r, self.ns_t):
            pids = run("ip", "netns", "pids", ns, check=False).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            run("ip", "netns", "del", ns, check=False)

    def daemon_log(self):
        try:
            with open(os.path.join(self.tmp, "daemon.log")) as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    # ------------------------------------------------------------- use
    reference = False  # the Linux reference router (LinuxRouter) says True

    def ctl(self, *args, check=True):
        return run(FWDCTL, "-s", self.sock, *args, check=check)

    def addresses(self):
        """[{"port", "prefix", "state"}, ...] of both families."""
        return json.loads(self.ctl("-j", "addr", "list").stdout).get("addresses", [])

    def addr_state(self, port, prefix):
        """An address's state (tentative, preferred, duplicate), or "absent"."""
        return next((a.get("state", "") for a in self.addresses()
                     if a["port"] == port and a["prefix"] == prefix), "absent")

    def addr_add(self, prefix, port):
        self.ctl("addr", "add", prefix, "dev", port)

    def addr_del(self, prefix, port, check=True):
        self.ctl("addr", "del", prefix, "dev", port, check=check)

    def neighbours(self, family=6):
        """{address: {"mac", "port", "state", ...}} from `fwdctl -N neigh list`."""
        d = json.loads(self.ctl("-j", f"-{family}", "neigh", "list").stdout)
        return {n["address"]: n for n in d.get("neighbours", [])}

    def neigh_del(self, addr, port, check=False):
        self.ctl("neigh", "del", addr, "dev", port, check=check)

    def stats(self):
        """{"p0": {"rx_packets": .., "drop_reasons": {name: value}}, ..., "global": {...}}
        (VLAN interfaces too, wherever `fwdctl -j stats` lists them)"""
        d = json.loads(self.ctl("-j", "stats").stdout)
        out = {}
        for k in ("ports", "ifaces", "interfaces"):
            for p in d.get(k, []):
                out[p["name"]] = self._stats_entry(p, k == "ports")
        out["global"] = {c["name"]: int(c.get("value", 0)) for c in d.get("global", [])}
        return out

    @staticmethod
    def _stats_entry(p, is_port):
        """One entry of `fwdctl -j stats`, is_port: listed under "ports"."""
        p = dict(p, is_port=is_port)
        p["drop_reasons"] = {c["name"]: int(c.get("value", 0)) for c in p.get("drop_reasons", [])}
        return p

    def _request(self, frames, send, listen, expect, quiet, grace, timeout, count, triggers):
        return {"send": send, "frames": [bytes(f).hex() for f in frames], "listen": list(listen),
                "expect": expect, "quiet": quiet, "grace": grace, "timeout": timeout,
                "count": count,
                "triggers": [{"on": t["on"], "send_on": t.get("send_on", t["on"]),
                              "match": [[o, bytes(b).hex()] for o, b in t["match"]],
                              "frames": [bytes(f).hex() for f in t["frames"]]}
                             for t in (triggers or [])]}

    def exchange(self, frames, send="t0", listen=("t0", "t1"), expect=0, quiet=0.3,
                 grace=0.15, timeout=3.0, count="ipv4", triggers=None):
        """Send raw frames (bytes) from a tester interface; what each one
        received. count and triggers: see pkt.py (triggers' match bytes and
        frames are bytes here)."""
        req = self._request(frames, send, listen, expect, quiet, grace, timeout, count, triggers)
        r = subprocess.run(["ip", "netns", "exec", self.ns_t, PY, os.path.join(HERE, "pkt.py")],
                           input=json.dumps(req), capture_output=True, text=True,
                           timeout=timeout + 20)
        if r.returncode != 0:
            pytest.fail(f"pkt.py failed: {r.stderr}")
        got = json.loads(r.stdout)
        return {k: [bytes.fromhex(h) for h in v] for k, v in got.items()}

    def capture_start(self, listen=("t0", "t1"), expect=0, quiet=0.3, grace=0.15, timeout=3.0,
                      count="ipv4", triggers=None, frames=(), send="t0"):
        """Start capturing (and answering triggers) in the background; returns
        once the capture sockets are open. capture_end(handle) gives what came."""
        req = self._request(frames, send, listen, expect, quiet, grace, timeout, count, triggers)
        req["ready"] = True
        p = subprocess.Popen(["ip", "netns", "exec", self.ns_t, PY,
                              os.path.join(HERE, "pkt.py")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        p.stdin.write(json.dumps(req))
        p.stdin.close()
        p.stdin = None  # communicate() would flush it
        line = p.stderr.readline()
        if line.strip() != "ready":
            p.kill()
            pytest.fail(f"pkt.py did not start: {line}{p.stderr.read()}")
        return (p, timeout)

    def capture_end(self, handle):
        p, timeout = handle
        try:
            out, err = p.communicate(timeout=timeout + 20)
        except subprocess.TimeoutExpired:
            p.kill()
            pytest.fail("pkt.py did not finish")
        if p.returncode != 0:
            pytest.fail(f"pkt.py failed: {err}")
        return {k: [bytes.fromhex(h) for h in v] for k, v in json.loads(out).items()}


class LinuxRouter(Router):
    """The Linux kernel as the router, in the same topology (FWD_REFERENCE=linux)."""

    reference = True
    PORTS = {"p0": "r0", "p1": "r1"}

    def x(self, *cmd, check=True):
        return run("ip", "netns", "exec", self.ns_r, *cmd, check=check)

    def start(self):
        self.x("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=0",
               "net.ipv6.conf.default.disable_ipv6=0", "net.ipv6.conf.r0.disable_ipv6=0",
               "net.ipv6.conf.r1.disable_ipv6=0", "net.ipv6.conf.all.forwarding=1",
               "net.ipv4.ip_forward=1", "net.ipv6.icmp.ratelimit=0", "net.ipv4.icmp_ratelimit=0")
        self.x("sysctl", "-qw", "net.ipv4.icmp_msgs_per_sec=100000",
               "net.ipv4.icmp_msgs_burst=100000", check=False)
        self.x("ip", "link", "set", "r1", "mtu", str(P1_MTU))
        for dev, a4, a6 in (("r0", P0_ADDR, P0_ADDR6), ("r1", P1_ADDR, P1_ADDR6)):
            self.x("ip", "addr", "add", f"{a4}/24", "dev", dev)
            self.x("ip", "addr", "add", f"{a6}/64", "dev", dev)
        for addr, mac, dev in ((HOST, T0_MAC, "r0"), (GW, T1_MAC, "r1"), (HOST6, T0_MAC, "r0"),
                               (GW6, T1_MAC, "r1"), (T0_LL, T0_MAC, "r0"),
                               (T1_LL, T1_MAC, "r1")):
            self.x("ip", "neigh", "replace", addr, "lladdr", mac, "dev", dev, "nud", "permanent")
        self.x("ip", "route", "add", ROUTED, "via", GW)
        self.x("ip", "route", "add", "blackhole", BLACKHOLE)
        self.x("ip", "-6", "route", "add", ROUTED6, "via", GW6)
        self.x("ip", "-6", "route", "add", ROUTED6_LL, "via", T1_LL, "dev", "r1")
        self.x("ip", "-6", "route", "add", "blackhole", BLACKHOLE6)
        self.mac = {"p0": R0_MAC, "p1": R1_MAC}
        self.wait_dad()
        time.sleep(2)  # the kernel's first MLD reports and the like

    def stop(self):
        return []

    def daemon_log(self):
        return ""

    def ctl(self, *args, check=True):
        pytest.skip("fwdctl: not on the Linux reference router")

    def stats(self):
        return None

    def addresses(self):
        out = []
        for link in json.loads(self.x("ip", "-j", "addr", "show").stdout):
            port = {v: k for k, v in self.PORTS.items()}.get(link["ifname"])
            if port is None:
                continue
            for a in link.get("addr_info", []):
                state = ("duplicate" if a.get("dadfailed") else
                         "tentative" if a.get("tentative") else "preferred")
                out.append({"port": port, "prefix": f"{a['local']}/{a['prefixlen']}",
                            "state": state})
        return out

    def addr_add(self, prefix, port):
        self.x("ip", "addr", "add", prefix, "dev", self.PORTS[port])

    def addr_del(self, prefix, port, check=True):
        self.x("ip", "addr", "del", prefix, "dev", self.PORTS[port], check=check)

    def neighbours(self, family=6):
        ports = {v: k for k, v in self.PORTS.items()}
        return {n["dst"]: {"address": n["dst"], "mac": n.get("lladdr", ""),
                           "port": ports.get(n["dev"], n["dev"]),
                           "state": (n.get("state") or ["none"])[0].lower()}
                for n in json.loads(self.x("ip", f"-{family}", "-j", "neigh", "show").stdout)}

    def neigh_del(self, addr, port, check=False):
        self.x("ip", "neigh", "del", addr, "dev", self.PORTS[port], check=check)


def router_session(pmd, tag, cls=Router):
    if os.geteuid() != 0:
        pytest.skip("needs root (network namespaces)")
    for path in (FWD_DAEMON, FWDCTL) if cls is Router else ():
        if not os.access(path, os.X_OK):
            pytest.skip(f"{path} not built")
    tmp = tempfile.mkdtemp(prefix=f"fwd-conformance-{tag}.")
    r = cls(tmp, f"fwdt{os.getpid()}-{tag}", pmd)
    problems = []
    try:
        r.build()
        r.start()
        yield r
    finally:
        problems = r.stop()
        if problems:
            sys.stderr.write("--- daemon log (tail)\n" + r.daemon_log() + "\n")
        r.destroy()
        if not os.environ.get("KEEP_TMP"):
            shutil.rmtree(tmp, ignore_errors=True)
    if problems:
        pytest.fail("daemon did not stop cleanly: " + "; ".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def router():
    yield from router_session("af_packet", "c")


@pytest.fixture(scope="session")
def router_xdp():
    yield from router_session("af_xdp", "x")


@pytest.fixture(scope="session")
def router6():
    """The router for the IPv6 tests: fwd on af_packet ports (`router`), or
    the Linux kernel with FWD_REFERENCE=linux."""
    if REFERENCE == "linux":
        yield from router_session(None, "l", LinuxRouter)
    elif REFERENCE:
        pytest.exit(f"FWD_REFERENCE={REFERENCE}: only 'linux' is known", 2)
    else:
        yield from router_session("af_packet", "c")
