# SPDX-License-Identifier: BSD-3-Clause
"""Send solicitations one at a time and count those an advertisement
answers, from inside a test namespace:

    ip netns exec NS /usr/bin/python3 ndp_probe.py IFACE FRAME_HEX TARGET N INTERVAL

FRAME_HEX is a Neighbor Solicitation for TARGET; it goes out N times,
INTERVAL seconds apart, and counts as answered when a Neighbor
Advertisement for TARGET to the solicitation's source MAC arrives on
IFACE before the next one is due (the router answers within
milliseconds; a late answer is a lost one, as for a host that retries).
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


def is_answer(data, mac, target):
    """An NA (ICMPv6 136 right after the fixed header) for target, to mac."""
    return (len(data) >= 78 and data[0:6] == mac and data[12:14] == b"\x86\xdd" and
            data[20] == 58 and data[54] == 136 and data[62:78] == target)


def wait_answer(s, mac, target, deadline):
    """True when an answer came before deadline."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if not select.select([s], [], [], left)[0]:
            return False
        while True:
            try:
                data, addr = s.recvfrom(65535)
            except BlockingIOError:
                break
            if addr[2] != PACKET_OUTGOING and is_answer(data, mac, target):
                return True


def main():
    iface, frame = sys.argv[1], bytes.fromhex(sys.argv[2])
    target = socket.inet_pton(socket.AF_INET6, sys.argv[3])
    n, interval = int(sys.argv[4]), float(sys.argv[5])
    s = na_socket(iface)
    answered, ms = 0, []
    for _ in range(n):
        start = time.monotonic()
        s.send(frame)
        if wait_answer(s, frame[6:12], target, start + interval):
            answered += 1
            ms.append(round((time.monotonic() - start) * 1000, 1))
        time.sleep(max(0.0, start + interval - time.monotonic()))
    json.dump({"sent": n, "answered": answered, "ms": ms}, sys.stdout)


if __name__ == "__main__":
    main()
