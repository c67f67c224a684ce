# SPDX-License-Identifier: BSD-3-Clause
"""Send solicitations one at a time and count those an advertisement
answers, from inside a test namespace:

    ip netns exec NS /usr/bin/python3 ndp_probe.py IFACE FRAMES_HEX TARGET INTERVAL

FRAMES_HEX: Neighbor Solicitations for TARGET, hex, comma-separated, each
from a source address of its own; they go out INTERVAL seconds apart. One
counts as answered when a Neighbor Advertisement for TARGET to its source
arrives on IFACE by ANSWER_S after the last one went (the router answers
within milliseconds; a busy test machine may take longer to carry it).
Prints {"sent": N, "answered": K, "ms": [latency of each answer]}.
"""
import ctypes
import json
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_IGNORE_OUTGOING = 23
SO_ATTACH_FILTER = 26
ANSWER_S = 1.0
# classic BPF: IPv6 (ethertype at 12), next header ICMPv6 (20), type 136
# (54): a flood of anything else (or a queue of it between probes) never
# fills the socket's buffer and crowds the answer out
NA_FILTER = [(0x28, 0, 0, 12), (0x15, 0, 5, 0x86dd), (0x30, 0, 0, 20), (0x15, 0, 3, 58),
             (0x30, 0, 0, 54), (0x15, 0, 1, 136), (0x06, 0, 0, 0xffff), (0x06, 0, 0, 0)]


def na_socket(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    prog = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *i) for i in NA_FILTER))
    s.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER,
                 struct.pack("HL", len(NA_FILTER), ctypes.addressof(prog)))
    try:  # a flood of NAs from this interface is not for us to read (Linux >= 4.20)
        s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
    except OSError:
        pass
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((iface, 0))
    s.setblocking(False)
    return s


def answer_to(data, target):
    """The destination address of an NA (ICMPv6 136 right after the fixed
    header) for target, else None."""
    if (len(data) >= 78 and data[12:14] == b"\x86\xdd" and data[20] == 58 and data[54] == 136
            and data[62:78] == target):
        return data[38:54]
    return None


def read_answers(s, target, sent_at, got, until):
    """Take in the answers that come until `until`: got[source] = latency."""
    while True:
        left = until - time.monotonic()
        if left <= 0 or not select.select([s], [], [], left)[0]:
            return
        while True:
            try:
                data, addr = s.recvfrom(65535)
            except BlockingIOError:
                break
            dst = answer_to(data, target) if addr[2] != PACKET_OUTGOING else None
            if dst in sent_at and dst not in got:
                got[dst] = time.monotonic() - sent_at[dst]


def main():
    iface, frames = sys.argv[1], [bytes.fromhex(h) for h in sys.argv[2].split(",")]
    target = socket.inet_pton(socket.AF_INET6, sys.argv[3])
    interval = float(sys.argv[4])
    s = na_socket(iface)
    sent_at, got = {}, {}
    start = time.monotonic()
    for i, frame in enumerate(frames):
        sent_at[frame[22:38]] = time.monotonic()  # keyed by the solicitation's source
        s.send(frame)
        read_answers(s, target, sent_at, got, start + (i + 1) * interval)
    read_answers(s, target, sent_at, got, time.monotonic() + ANSWER_S)
    json.dump({"sent": len(frames), "answered": len(got),
               "ms": sorted(round(v * 1000, 1) for v in got.values())}, sys.stdout)


if __name__ == "__main__":
    main()
