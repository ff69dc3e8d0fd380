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
import json
import os
import re
import subprocess
import sys
import tempfile

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


# Failure classes that belong to another helper's work: a missing tile op is the op catalogue's (ops/opsort).
OWNER = [
    (re.compile(r"unknown op 'pl\.(tile|system)\.|not modelled by cvsim|pl\.\w+\(\): keyword argument|"
                r"pl\.(tile|system)\.\w+\(\) takes \d+ argument|pl\.(tile|system)\.\w+\(\) got an unexpected"), "[ops] "),
]


def first_error(rc: int, out: str) -> str:
    m = DIAG.search(out)
    if m:
        msg = m.group("msg")
        tag = next((t for rx, t in OWNER if rx.search(msg)), "")
        return f"{tag}{m.group('code')}: {normalise(msg)}"
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
    ap.add_argument("--schedules", type=int, default=20, help="check budget per kernel (default 20)")
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dumps) for f in fs
                   if f.endswith(".py") and not f.startswith("_") and ".passes" not in d)
    if not files:
        print(f"no .py files below {a.dumps}", file=sys.stderr)
        return 2
    tried = collections.Counter()
    read = collections.Counter()
    verdict = collections.Counter()
    exits = collections.Counter()
    kernels = collections.Counter()  # (stage, reached a verdict) -> kernels
    tmp = tempfile.mkdtemp(prefix="read_dumps_")
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
            js = os.path.join(tmp, "check.json")
            if os.path.exists(js):
                os.remove(js)
            rc, out = run([a.cvsim, "check", f, "--schedules", str(a.schedules), "--jobs", "1", "--no-progress",
                           "--json", js], a.timeout)
            # Per kernel (a multi-launch Orchestration is checked kernel by kernel): a verdict or a diagnostic.
            try:
                with open(js) as fh:
                    for k in json.load(fh).get("kernels", []):
                        kernels[(st, "diagnostic" not in k or k["diagnostic"].get("code") == "E-V2C-UNFENCED")] += 1
            except (OSError, ValueError):
                pass
            if rc in (0, 1):
                verdict[st] += 1
                exits[(st, rc)] += 1
            else:
                c = "check: " + first_error(rc, out)
                classes[c] += 1
                example.setdefault(c, f)
    for st in sorted(tried):
        extra = (f", verdict {verdict[st]} (exit 0: {exits[(st, 0)]}, exit 1: {exits[(st, 1)]}); kernels checked "
                 f"{kernels[(st, True)]}, kernels with a diagnostic {kernels[(st, False)]}") if a.check else ""
        print(f"{st}: {tried[st]} files, read {read[st]}{extra}")
    print(f"total: {sum(tried.values())} files, read {sum(read.values())}" + (f", verdict {sum(verdict.values())}" if a.check else ""))
    for c, n in classes.most_common(a.show):
        print(f"{n:5d}  {c}\n       e.g. {example[c]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
