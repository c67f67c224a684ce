#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that every #include "..." in daemon/, cli/ and proto/ follows the
layers declared in daemon/LAYERS (doc/architecture.md explains them): a
daemon folder includes itself, proto/ and the folders its line names, and
nothing else; cli/ includes only itself and proto/; proto/ only itself.
Prints one line per violation (file:line: what) and exits 1 if any."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# headers generated into the build tree or found through -Iproto
PROTO = {"fwd.pb-c.h", "fwd_drop_names.h", "fwd_drop_help.h"} | {f for f in os.listdir(os.path.join(ROOT, "proto")) if f.endswith(".h")}


def read_layers(path):
    """folder -> set of folders it may include; also checks the table itself."""
    allowed, order = {}, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, deps = line.partition(":")
            name = name.strip()
            deps = deps.split()
            for d in deps:
                if d not in allowed:
                    sys.exit(f"{path}:{n}: {name} names {d}, which is not declared above it")
            allowed[name] = set(deps)
            order.append(name)
    return allowed, order


def check_file(path, folder, allowed, errors):
    rel = os.path.relpath(path, ROOT)
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            target = inc.split("/", 1)[0] if "/" in inc else None
            if target is None:
                if inc in PROTO:
                    continue
                # a file of the same folder, included without its folder name
                if os.path.exists(os.path.join(os.path.dirname(path), inc)):
                    continue
                errors.append(f"{rel}:{n}: {inc}: include with its folder (\"{folder}/...\")")
            elif target != folder and target not in allowed:
                errors.append(f"{rel}:{n}: {inc}: {folder}/ may not include {target}/ "
                              f"(daemon/LAYERS: {folder}: {' '.join(sorted(allowed)) or '-'})")


def sources(top):
    for d, _, files in os.walk(top):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield d, os.path.join(d, f)


def main():
    allowed, _ = read_layers(os.path.join(ROOT, "daemon", "LAYERS"))
    errors = []
    for d, path in sources(os.path.join(ROOT, "daemon")):
        folder = os.path.relpath(d, os.path.join(ROOT, "daemon")).split(os.sep)[0]
        if folder not in allowed:
            errors.append(f"{os.path.relpath(path, ROOT)}: daemon/{folder}/ is not in daemon/LAYERS")
            continue
        check_file(path, folder, allowed[folder], errors)
    for top in ("cli", "proto"):
        for _, path in sources(os.path.join(ROOT, top)):
            check_file(path, top, set(), errors)
    for e in errors:
        print(e)
    if errors:
        print(f"layers: {len(errors)} include(s) against daemon/LAYERS", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
