#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that every repository path the tree names exists: in the code
and its comments, tests, scripts, the Makefile, man pages and doc/. A path
is a word like daemon/core/drop.h, "$SRCDIR/tests/smoke/lib.sh" or core/event.h: a
folder of the repository (or of daemon/, or of tests/) followed by a file
name with an extension. It must exist from the repository's root, from
daemon/, from tests/, or from the naming file's own folder. Code also may
not send its reader to the design document, which the repository does not
have (comments point into the repository: doc/architecture.md, man pages).

Prints one line per stale name (file:line: what) and exits 1 if any.
Generated trees (build/) and files a test writes at run time are no
repository paths; a name that is meant to be missing carries
"lint-paths: ok" on its line."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASES = ("", "daemon", "tests")
EXTS = "c|h|py|sh|md|proto|yaml|yml|json|txt|in|5|8|supp|patch|service|conf|bash-completion"
# a path: dir/.../name.ext, not part of a longer word, an absolute path or a URL
PATH = re.compile(r"(?<![\w./$~-])((?:[A-Za-z0-9_][\w.-]*/)+[\w.-]+\.(?:" + EXTS + r"))(?![\w/-])")
# the checkout's root as scripts write it: what follows is a repository path
SRCDIR = re.compile(r"\$\{?(?:FWD_)?SRCDIR\}?/")
DESIGN = re.compile(r"DESIGN" r"\.md")  # split: this file is checked too
CODE = re.compile(r"\.(c|h|sh|py|proto)$|(^|/)Makefile$|\.bash-completion$")
CHECKED = re.compile(r"\.(c|h|sh|py|proto|md|5|8|in|bash-completion)$|(^|/)Makefile$")
SKIP_FILES = set()


def tracked():
    out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True,
                         check=True).stdout
    return [f for f in out.splitlines() if CHECKED.search(f) and os.path.basename(f) not in SKIP_FILES]


def folders():
    """First components a repository path may start with."""
    tops = set()
    for base in BASES:
        d = os.path.join(ROOT, base)
        tops |= {e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e)) and e != "build"}
    return tops


def exists(path, here):
    for base in BASES + (here,):
        if os.path.exists(os.path.join(ROOT, base, path)):
            return True
    return False


def m_design(line):
    return DESIGN.search(line).group(0)


def check(f, tops):
    bad = []
    here = os.path.dirname(f)
    with open(os.path.join(ROOT, f), errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            if "lint-paths: ok" in line:
                continue
            if CODE.search(f) and DESIGN.search(line):
                bad.append("%s:%d: names %s, which the repository does not have" % (f, n, m_design(line)))
            for m in PATH.finditer(SRCDIR.sub(" ", line)):
                p = m.group(1)
                first = p.split("/", 1)[0]
                if first in tops and not exists(p, here):
                    bad.append("%s:%d: %s does not exist" % (f, n, p))
    return bad


def main():
    tops = folders()
    bad = []
    for f in tracked():
        if os.path.isfile(os.path.join(ROOT, f)):
            bad += check(f, tops)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
