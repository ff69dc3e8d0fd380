#!/usr/bin/env python3
"""Tally how much of a folder of printed PyPTO programs cvsim reads, matches and checks.

Usage: scripts/read_dumps.py DUMPS_DIR [--cvsim build/cvsim] [--check] [--parity] [--show N] [--jobs J]
                             [--tsv FILE] [--match REGEX] [--from-tsv FILE --class REGEX]

DUMPS_DIR holds what PyPTO's printer wrote at the ExpandMixedKernel boundary, e.g. dump_ir.py's
``<stem>/<kernel>.before_ExpandMixedKernel.py`` and ``.after_ExpandMixedKernel.py`` files (any ``*.py``
below DUMPS_DIR is taken; the stage is read from the file name). Per file:
  * read:    ``cvsim expand FILE --v2c off`` (parse, type check, expand) exits 0;
  * verdict (--check): ``cvsim check FILE`` (AFTER as it is: upstream's expansion; BEFORE with the default
    --v2c fence: cvsim's) exits 0 (clean) or 1 (findings); anything else is "no verdict";
  * parity (--parity, per before/after pair that both read): ``cvsim expand BEFORE --v2c off --compare AFTER``;
    a difference is "documented" when every differing function matches a row of DOCUMENTED below (each
    names its docs/DECISIONS.md bullet), else "unexplained".
Prints one line per stage, the parity and verdict tallies, and the most frequent first diagnostics (names
and numbers blanked), each with one example file; --tsv writes one row per file.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[A-Z0-9-]+)\]: (?P<msg>.*)$", re.M)

# Parity differences cvsim makes on purpose: (regex on one function's report block, DECISIONS.md bullet).
DOCUMENTED = [
    # cvsim prints gather_row's SSA lowering (a load into the window, then an assemble) where upstream keeps the op.
    (r"cvsim:.*>?tile\.load >?tile\.assemble.*\n\s*upstream:.*tile\.gather_row", "pl.tile.gather_row (Frontend)"),
    # A pl.tensor.write runs on one lane; upstream copies it to both.
    (r"upstream:.*tensor\.write", "`pl.tensor.write` in a mixed function runs on one lane (Expander)"),
]


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


def parity_blocks(report: str):
    """The compare report split per function: [(name, block text)] for the functions that differ."""
    blocks, cur = [], None
    for line in report.splitlines():
        m = re.match(r"^(\w+): (same|differs|only in)", line)
        if m and m.group(1) == "PARITY":  # the verdict line, not a function
            cur = None
        elif m:
            cur = [m.group(1), line, m.group(2) != "same"]
            blocks.append(cur)
        elif cur and line.startswith("  "):
            cur[1] += "\n" + line
    return [(n, b) for n, b, d in blocks if d]


def classify_parity(report: str):
    """('documented', [bullets]) when every differing function matches a DOCUMENTED row, else ('unexplained', [])."""
    why = []
    for _name, block in parity_blocks(report):
        hit = next((d for rx, d in DOCUMENTED if re.search(rx, block, re.S)), None)
        if hit is None:
            return "unexplained", []
        why.append(hit)
    return "documented", sorted(set(why))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dumps")
    ap.add_argument("--cvsim", default=os.path.join(os.path.dirname(__file__), "..", "build", "cvsim"))
    ap.add_argument("--check", action="store_true", help="also run cvsim check on the files that read")
    ap.add_argument("--parity", action="store_true", help="also compare each before/after pair that reads")
    ap.add_argument("--show", type=int, default=15, help="failure classes to list (default 15)")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--schedules", type=int, default=20, help="check budget per kernel (default 20)")
    ap.add_argument("--jobs", type=int, default=1, help="files at once (default 1)")
    ap.add_argument("--tsv", default=None, help="write one row per file: file, stage, read, parity, verdict, class")
    ap.add_argument("--rows", default=None, help="append each file's row (read, verdict, class) to this file as it is done")
    ap.add_argument("--match", default=None, help="only the files whose path matches this regular expression")
    ap.add_argument("--from-tsv", default=None, help="only the files of an earlier --tsv (with --class: of that class)")
    ap.add_argument("--class", dest="klass", default=None, help="with --from-tsv: rows whose class matches this regex")
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dumps) for f in fs
                   if f.endswith(".py") and not f.startswith("_") and ".passes" not in d)
    if a.match:
        files = [f for f in files if re.search(a.match, f)]
    if a.from_tsv:
        with open(a.from_tsv) as fh:
            rows = [ln.rstrip("\n").split("\t") for ln in fh if ln.strip()]
        keep = {r[0] for r in rows if not a.klass or (len(r) > 6 and re.search(a.klass, r[6]))}
        # A pair stays whole: parity needs both stages.
        keep |= {k.replace("before_ExpandMixedKernel", "after_ExpandMixedKernel") for k in keep}
        keep |= {k.replace("after_ExpandMixedKernel", "before_ExpandMixedKernel") for k in keep}
        files = [f for f in files if f in keep]
    if not files:
        print(f"no .py files below {a.dumps}", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="read_dumps_")

    def one(f):
        r = {"file": f, "stage": stage_of(f), "read": False, "class": "", "verdict": "", "kernels": [],
             "parity": "", "why": []}
        rc, out = run([a.cvsim, "expand", f, "--v2c", "off", "-o", os.devnull], a.timeout)
        if rc != 0:
            r["class"] = first_error(rc, out)
            return r
        r["read"] = True
        if a.check:
            js = os.path.join(tmp, f"check_{abs(hash(f))}.json")
            rc, out = run([a.cvsim, "check", f, "--schedules", str(a.schedules), "--jobs", "0", "--no-progress",
                           "--json", js], a.timeout)
            try:
                with open(js) as fh:
                    r["kernels"] = [("diagnostic" not in k or k["diagnostic"].get("code") == "E-V2C-UNFENCED")
                                    for k in json.load(fh).get("kernels", [])]
                os.remove(js)
            except (OSError, ValueError):
                pass
            if rc in (0, 1):
                r["verdict"] = "clean" if rc == 0 else "findings"
            else:
                r["verdict"] = "none"
                r["class"] = "check: " + first_error(rc, out)
        return r

    lock = threading.Lock()

    def one_row(f):
        r = one(f)
        if a.rows:
            with lock, open(a.rows, "a") as fh:
                fh.write("\t".join([r["file"], r["stage"], "read" if r["read"] else "unread", "", r["verdict"], "",
                                    r["class"]]) + "\n")
        return r

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        res = list(pool.map(one_row, files))
    by_file = {r["file"]: r for r in res}

    pairs = []
    for f in files:
        if stage_of(f) == "before":
            g = f.replace("before_ExpandMixedKernel", "after_ExpandMixedKernel")
            if g in by_file:
                pairs.append((f, g))

    def par(p):
        b, g = p
        if not (by_file[b]["read"] and by_file[g]["read"]):
            return p, "not read", "", []
        rc, out = run([a.cvsim, "expand", b, "--v2c", "off", "--compare", g, "-o", os.devnull], a.timeout)
        if rc == 0:
            return p, "same", out, []
        if rc != 1 or "PARITY:" not in out:
            return p, "error", out, []
        kind, why = classify_parity(out)
        return p, kind, out, why

    parity = collections.Counter()
    diff_classes = collections.Counter()
    diff_example = {}
    if a.parity:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for (b, g), kind, out, why in pool.map(par, pairs):
                parity[kind] += 1
                by_file[b]["parity"] = kind
                by_file[b]["why"] = why
                if kind in ("unexplained", "error"):
                    for name, block in parity_blocks(out) or [("?", out.strip().splitlines()[-1] if out else "")]:
                        c = re.sub(r"\b\d+\b", "N", block.split("\n")[0].split(": ", 1)[-1])
                        first = block.split("\n")[1:3]
                        key = f"{kind}: {c} | " + " / ".join(re.sub(r"\s+", " ", x.strip()) for x in first)
                        diff_classes[key[:220]] += 1
                        diff_example.setdefault(key[:220], b)
                for w in why:
                    diff_classes["documented: " + w] += 1
                    diff_example.setdefault("documented: " + w, b)

    tried = collections.Counter(r["stage"] for r in res)
    read = collections.Counter(r["stage"] for r in res if r["read"])
    verdict = collections.Counter((r["stage"], r["verdict"]) for r in res if r["verdict"])
    kernels = collections.Counter((r["stage"], k) for r in res for k in r["kernels"])
    classes = collections.Counter(r["class"] for r in res if r["class"])
    example = {}
    for r in res:
        if r["class"]:
            example.setdefault(r["class"], r["file"])
    for st in sorted(tried):
        extra = ""
        if a.check:
            extra = (f", verdict clean {verdict[(st, 'clean')]}, findings {verdict[(st, 'findings')]}, none "
                     f"{verdict[(st, 'none')]}; kernels checked {kernels[(st, True)]}, kernels with a diagnostic "
                     f"{kernels[(st, False)]}")
        print(f"{st}: {tried[st]} files, read {read[st]}{extra}")
    print(f"total: {sum(tried.values())} files, read {sum(read.values())}"
          + (f", verdict {sum(v for (s, k), v in verdict.items() if k != 'none')}" if a.check else ""))
    if a.parity:
        print(f"pairs: {len(pairs)}, both read {len(pairs) - parity['not read']}: parity same {parity['same']}, "
              f"different-documented {parity['documented']}, different-unexplained {parity['unexplained']}, "
              f"compare error {parity['error']}")
    for c, n in classes.most_common(a.show):
        print(f"{n:5d}  {c}\n       e.g. {example[c]}")
    for c, n in diff_classes.most_common(a.show):
        print(f"{n:5d}  parity {c}\n       e.g. {diff_example[c]}")
    if a.tsv:
        with open(a.tsv, "w") as fh:
            for r in res:
                fh.write("\t".join([r["file"], r["stage"], "read" if r["read"] else "unread", r["parity"],
                                    r["verdict"], ",".join(r["why"]), r["class"]]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
