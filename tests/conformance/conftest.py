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

The session fixture `router` builds it all, starts build/san/fwd-daemon
(BUILD or FWD_DAEMON as in tests/smoke/lib.sh) on net_af_packet ports, and
always tears down; at the end the daemon must exit 0 with no sanitizer
report. `router_xdp` is the same on net_af_xdp ports, for what af_packet
cannot carry: DPDK's af_packet PMD joins a PACKET_FANOUT group with
PACKET_FANOUT_FLAG_DEFRAG, so the kernel reassembles IP fragments (and
holds a lone one for ever) before the daemon sees them.
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


def run(*cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=30, **kw)


def config(prefix, sock, pmd):
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
ports:
  - {{ name: p0, device: "net_{pmd}0,iface=r0", addresses: [{P0_ADDR}/24] }}
  - {{ name: p1, device: "net_{pmd}1,iface=r1", addresses: [{P1_ADDR}/24], mtu: {P1_MTU} }}
routes:
  - {{ prefix: {ROUTED}, via: {GW} }}
  - {{ prefix: {BLACKHOLE}, blackhole: true }}
neighbors:
  - {{ address: {HOST}, mac: "{T0_MAC}", port: p0 }}
  - {{ address: {GW}, mac: "{T1_MAC}", port: p1 }}
"""


class Router:
    """The running topology: send frames, read counters."""

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
            f.write(config(self.prefix, self.sock, self.pmd))
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
    def ctl(self, *args, check=True):
        return run(FWDCTL, "-s", self.sock, *args, check=check)

    def stats(self):
        """{"p0": {"rx_packets": .., "drop_reasons": {name: value}}, ..., "global": {...}}"""
        d = json.loads(self.ctl("-j", "stats").stdout)
        out = {}
        for p in d.get("ports", []):
            p = dict(p)
            p["drop_reasons"] = {c["name"]: int(c.get("value", 0))
                                 for c in p.get("drop_reasons", [])}
            out[p["name"]] = p
        out["global"] = {c["name"]: int(c.get("value", 0)) for c in d.get("global", [])}
        return out

    def exchange(self, frames, send="t0", listen=("t0", "t1"), expect=0, quiet=0.3,
                 grace=0.15, timeout=3.0):
        """Send raw frames (bytes) from a tester interface; what each one received."""
        req = {"send": send, "frames": [bytes(f).hex() for f in frames], "listen": list(listen),
               "expect": expect, "quiet": quiet, "grace": grace, "timeout": timeout}
        r = subprocess.run(["ip", "netns", "exec", self.ns_t, PY, os.path.join(HERE, "pkt.py")],
                           input=json.dumps(req), capture_output=True, text=True,
                           timeout=timeout + 20)
        if r.returncode != 0:
            pytest.fail(f"pkt.py failed: {r.stderr}")
        got = json.loads(r.stdout)
        return {k: [bytes.fromhex(h) for h in v] for k, v in got.items()}


def router_session(pmd, tag):
    if os.geteuid() != 0:
        pytest.skip("needs root (network namespaces)")
    for path in (FWD_DAEMON, FWDCTL):
        if not os.access(path, os.X_OK):
            pytest.skip(f"{path} not built")
    tmp = tempfile.mkdtemp(prefix=f"fwd-conformance-{tag}.")
    r = Router(tmp, f"fwdt{os.getpid()}-{tag}", pmd)
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
