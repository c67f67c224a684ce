#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write fwd's configuration of every bench program into a directory, so
that tests/smoke/bench_config_test.sh can run `fwd-daemon --check` on each
(a bench group whose configuration the daemon no longer takes fails there,
in make check, instead of in the next make bench).

    configs.py BUILD_DIR OUTDIR [GROUP ...]

GROUP: main, ipv6, acl, l2, vlan, bond (default: all). Writes
OUTDIR/NAME.yaml, and the bond group's LACP partners' OUTDIR/NAME-peer.yaml.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import bondbench  # noqa: E402
import l2vlan  # noqa: E402


def programs(p, group):
    pcap = p.pcap64
    return {
        "main": lambda: [bl.Fwd(p, "fwd-xc", "", pcap, "xconnect"),
                         bl.Fwd(p, "fwd-16", "", pcap, "l3"),
                         bl.Fwd(p, "fwd-ecmp", "", pcap, "l3", ecmp=True)],
        "ipv6": lambda: [bl.Fwd(p, "fwd-16-v6", "", p.pcap62v6, "l3", ipv6=True)],
        "acl": lambda: [bl.Fwd(p, "fwd-1k-acl", "", pcap, "l3", acl_rules=1000)],
        "l2": lambda: [l2vlan.FwdBridge(p, "fwd-br-l2", "", "l2-64.pcap", "l2-learn.pcap")],
        "vlan": lambda: [l2vlan.FwdVlan(p, "fwd-tag-vlan", "", "vlan100-64.pcap", "l3")],
        "bond": lambda: [bondbench.FwdMemif(p, "fwd-memif-bond", "", pcap, "l3"),
                         bondbench.FwdBond(p, "fwd-bond-bond", "", pcap, "l3")],
    }[group]()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    p = bl.Paths(sys.argv[1])
    out = sys.argv[2]
    for group in sys.argv[3:] or ["main", "ipv6", "acl", "l2", "vlan", "bond"]:
        for prog in programs(p, group):
            with open(os.path.join(out, prog.name + ".yaml"), "w") as f:
                f.write(prog.config())
            if isinstance(prog.gen, bondbench.Partner):
                with open(os.path.join(out, prog.name + "-peer.yaml"), "w") as f:
                    f.write(prog.gen.config())


if __name__ == "__main__":
    main()
