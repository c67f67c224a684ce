#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Record the request frames fwdctl sends for each command into the RPC
fuzzer's seed corpus (tests/fuzz/corpus/rpc/). Run after changing the
RPC schema or fwdctl:  tests/fuzz/make_rpc_seeds.py build/san/fwdctl
"""
import os
import socket
import subprocess
import sys
import tempfile
import threading

COMMANDS = [
    "status", "port list", "port show p0", "port set p0 down", "port set p9 up",
    "stats", "stats p0", "stats clear", "stats workers",
    "addr list", "addr list dev p1", "addr add 10.9.0.1/24 dev p0", "addr del 10.0.0.1/24 dev p0",
    "route list", "route get 192.0.2.7", "route add 198.18.0.0/15 via 10.0.0.2",
    "route add 198.18.0.0/15 via 10.0.1.2 dev p1", "route add 100.64.0.0/10 blackhole",
    "route replace 0.0.0.0/0 via 10.0.0.2", "route del 192.0.2.0/24",
    "neigh list", "neigh add 10.0.0.9 lladdr 02:00:00:00:00:09 dev p0",
    "neigh del 10.0.0.2 dev p0", "neigh flush", "neigh flush dev p1",
    "bridge list", "bridge fdb br0", "bridge flush",
    "config show", "config reload",
    "monitor", "monitor route neigh drops",
    "iface list", "iface add p0.100 port p0 vlan 100 mtu 1400", "iface add lo0 loopback",
    "iface del p0.100", "iface set p0.100 down", "iface set p0.100 mtu 1400",
]


def record(ctl, args, path):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(3)
    got = {}

    def serve():
        try:
            conn, _ = srv.accept()
        except OSError:
            return  # fwdctl refused the command line without connecting
        conn.settimeout(2)
        data = b""
        try:
            while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], "big"):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            conn.close()
        got["frame"] = data

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    subprocess.run([ctl, "-s", path] + args, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=dict(os.environ, FWD_TIMEOUT="1"))
    t.join(5)
    srv.close()
    os.unlink(path)
    return got.get("frame", b"")


def main():
    ctl = sys.argv[1]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "rpc")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        for i, cmd in enumerate(COMMANDS):
            frame = record(ctl, cmd.split(), os.path.join(d, "s"))
            if frame:
                with open(os.path.join(out, "%02d-%s" % (i, cmd.replace(" ", "_").replace("/", "_"))), "wb") as f:
                    f.write(frame)
        # two requests on one connection: the second without api_version
        a = record(ctl, ["status"], os.path.join(d, "s"))
        b = record(ctl, ["route", "list"], os.path.join(d, "s"))
        with open(os.path.join(out, "90-two-requests"), "wb") as f:
            f.write(a + b)


if __name__ == "__main__":
    main()
