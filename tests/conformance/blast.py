# SPDX-License-Identifier: BSD-3-Clause
"""Send many raw frames, paced, from inside a test namespace:

    ip netns exec NS /usr/bin/python3 blast.py IFACE FILE RATE [BATCH_S]

FILE holds frames as a 2-byte big-endian length then the bytes. They go
out through one AF_PACKET socket in batches, RATE frames a second on
average (a batch every BATCH_S seconds, 10 ms by default), so the
receiver's rings never overflow; a flood that must leave no quiet gaps
takes a shorter BATCH_S.
Prints {"sent": N, "refused": {errno name: count}} on stdout; a frame the
kernel refuses is not sent and not counted in N.
"""
import errno
import json
import socket
import struct
import sys
import time

BATCH_S = 0.01


def read_frames(path):
    with open(path, "rb") as f:
        data = f.read()
    out, i = [], 0
    while i + 2 <= len(data):
        n = struct.unpack(">H", data[i:i + 2])[0]
        out.append(data[i + 2:i + 2 + n])
        i += 2 + n
    return out


def send(s, f):
    """None when sent, else the errno name."""
    for _ in range(100):  # a full device queue empties in microseconds
        try:
            s.send(f)
            return None
        except OSError as e:
            if e.errno != errno.ENOBUFS:
                return errno.errorcode.get(e.errno, str(e.errno))
            time.sleep(0.001)
    return "ENOBUFS"


def main():
    iface, path, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
    batch_s = float(sys.argv[4]) if len(sys.argv) > 4 else BATCH_S
    frames = read_frames(path)
    per_batch = max(1, int(rate * batch_s))
    sent, refused = 0, {}
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    start = time.monotonic()
    for i in range(0, len(frames), per_batch):
        for f in frames[i:i + per_batch]:
            err = send(s, f)
            if err is None:
                sent += 1
            else:
                refused[err] = refused.get(err, 0) + 1
        time.sleep(max(0.0, start + (i + per_batch) / rate - time.monotonic()))
    json.dump({"sent": sent, "refused": refused}, sys.stdout)


if __name__ == "__main__":
    main()
