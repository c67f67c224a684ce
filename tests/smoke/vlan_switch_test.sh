#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The VLAN switch of lib_vlan.sh on its own (no fwd): what the VLAN tests
# stand on. From the trunk end, an ARP request tagged 100 reaches only the
# host on VLAN 100 and its reply comes back tagged 100; the same for 200;
# the two VLANs are apart (same subnet, no ping); set-up time and cleanup.
#
#   h1 10.9.0.1 --- VLAN 100 ---+
#                               +-- switch == trunk == tr (namespace fw: the tester)
#   h2 10.9.0.2 --- VLAN 200 ---+
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vlan.sh"

smoke_init vlan_switch
started=$(date +%s%N)
ns_add h1 h2 fw
must vlan_switch fw tr
must vlan_access h1 v1 100
must vlan_access h2 v2 200
ms=$((($(date +%s%N) - started) / 1000000))
ip -n "$(ns h1)" addr add 10.9.0.1/24 dev v1
ip -n "$(ns h2)" addr add 10.9.0.2/24 dev v2
expect "switch ($(vlan_kind)) with a trunk and two access links set up in ${ms} ms (< 5000)" \
	"$ms" -lt 5000

# arp_probe VID:TARGET...: ARP requests sent tagged VID for TARGET from the
# trunk end, all at once; prints the replies as "VID:SENDER" (pkt.py puts
# the tags back; raw bytes, no scapy: it takes seconds to import)
arp_probe() {
	"$PY" - "$@" <<-'EOF' | ns_exec fw "$PY" "$SRCDIR/tests/conformance/pkt.py" |
	import json, socket, struct, sys
	me = bytes.fromhex("02aa00000009")
	frames = [(b"\xff" * 6 + me + struct.pack("!HHH", 0x8100, int(vid), 0x0806) +
	           struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + me + socket.inet_aton("10.9.0.9") +
	           bytes(6) + socket.inet_aton(ip)).hex()
	          for vid, ip in (a.split(":") for a in sys.argv[1:])]
	print(json.dumps({"send": "tr", "frames": frames, "listen": ["tr"], "expect": 0,
	                  "quiet": 0.5, "count": "any", "timeout": 3}))
	EOF
		"$PY" -c 'import json, socket, sys
out = []
for f in (bytes.fromhex(h) for h in json.load(sys.stdin)["tr"]):
    vid, f = (int.from_bytes(f[14:16], "big") & 0xfff, f[:12] + f[16:]) if f[12:14] == b"\x81\x00" else ("untagged", f)
    if f[12:14] == b"\x08\x06" and f[20:22] == b"\x00\x02":
        out.append("%s:%s" % (vid, socket.inet_ntoa(f[28:32])))
print(" ".join(sorted(out)) or "none")'
}

got=$(arp_probe 100:10.9.0.1 200:10.9.0.2 200:10.9.0.1 300:10.9.0.2)
expect "ARP for h1 tagged 100 answered tagged 100, for h2 tagged 200 tagged 200; none for h1 on VLAN 200 nor on VLAN 300" \
	"$got" = "100:10.9.0.1 200:10.9.0.2"
check_fails "h1 and h2 share a subnet but not a VLAN: no ping" \
	ns_exec h1 ping -c 1 -W 1 10.9.0.2
smoke_done
