#!/usr/bin/env python3
"""Tally how much of a folder of printed PyPTO programs cvsim reads.

Usage: scripts/read_dumps.py DUMPS_DIR [--cvsim build/cvsim] [--check] [--show N]

DUMPS_DIR holds what PyPTO's printer wrote at the ExpandMixedKernel boundary, e.g. dump_ir.py's
``<stem>/<kernel>.before_ExpandMixedKernel.py`` and ``.after_ExpandMixedKernel.py`` files (any ``*.py``
below DUMPS_DIR is taken; the stage is read from the file name). Each file is read with
``cvsim expand FILE --v2c off`` (parse, type check, expand); with --check, the files that read are also
given to ``cvsim check`` (default budget) to see whether it reaches a verdict (exit 0 or 1).

Prints one line per stage (files / read / verdict) and the most frequent first diagnostics, grouped by
code and message with names and numbers blanked, each with one example file to reproduce it.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z0-9-]+)\]: (?P<msg>.*)$", re.M)


def normalise(msg: str) -> str:
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:140]


def stage_of(path: str) -> str:
    name = os.path.basename(path)
    if "before_ExpandMixedKernel" in name:
        return "before"
    if "after_ExpandMixedKernel" in name:
        return "after"
    return "other"


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, "timeout"


def first_error(rc: int, out: str) -> str:
    m = DIAG.search(out)
    if m:
        return f"{m.group('code')}: {normalise(m.group('msg'))}"
    if rc == -1:
        return "TIMEOUT"
    return f"exit {rc}: {normalise(out.strip().splitlines()[-1] if out.strip() else '')}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dumps")
    ap.add_argument("--cvsim", default=os.path.join(os.path.dirname(__file__), "..", "build", "cvsim"))
    ap.add_argument("--check", action="store_true", help="also run cvsim check on the files that read")
    ap.add_argument("--show", type=int, default=15, help="failure classes to list (default 15)")
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dumps) for f in fs if f.endswith(".py"))
    if not files:
        print(f"no .py files below {a.dumps}", file=sys.stderr)
        return 2
    tried = collections.Counter()
    read = collections.Counter()
    verdict = collections.Counter()
    classes = collections.Counter()
    example = {}
    for f in files:
        st = stage_of(f)
        tried[st] += 1
        rc, out = run([a.cvsim, "expand", f, "--v2c", "off", "-o", os.devnull], a.timeout)
        if rc != 0:
            c = first_error(rc, out)
            classes[c] += 1
            example.setdefault(c, f)
            continue
        read[st] += 1
        if a.check:
            rc, out = run([a.cvsim, "check", f], a.timeout)
            if rc in (0, 1):
                verdict[st] += 1
            else:
                c = "check: " + first_error(rc, out)
                classes[c] += 1
                example.setdefault(c, f)
    for st in sorted(tried):
        extra = f", verdict {verdict[st]}" if a.check else ""
        print(f"{st}: {tried[st]} files, read {read[st]}{extra}")
    print(f"total: {sum(tried.values())} files, read {sum(read.values())}" + (f", verdict {sum(verdict.values())}" if a.check else ""))
    for c, n in classes.most_common(a.show):
        print(f"{n:5d}  {c}\n       e.g. {example[c]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
