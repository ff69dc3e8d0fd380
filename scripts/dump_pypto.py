#!/usr/bin/env python3
"""Dump PyPTO's printed IR (before/after ExpandMixedKernel) for every kernel file below some roots.

Usage: scripts/dump_pypto.py OUT_DIR ROOT... [--dump-ir PATH] [--pypto-work DIR] [--timeout S]

Runs ``dump_ir.py FILE --out OUT_DIR`` (the tool in ../shared/tools/pypto, which needs a PyPTO build)
once per ``*.py`` below each ROOT (``__init__.py``, ``conftest.py``, ``config*.py`` and ``golden*`` files
skipped). Writes OUT_DIR/_dump_log.tsv (file, exit code, kernels dumped, last line) and
OUT_DIR/_dump_failures.txt (the files where dump_ir itself failed or timed out, with its output tail),
so failures of the dumper are kept apart from what cvsim reads (scripts/read_dumps.py). Output goes
outside the repository: the project never holds upstream kernels or their printed output.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

SKIP = re.compile(r"^(__init__|conftest|config.*|golden.*|setup)\.py$")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--dump-ir", default="/work/shared/tools/pypto/dump_ir.py")
    ap.add_argument("--pypto-work", default=os.environ.get("PYPTO_WORK", "/work/pypto-work"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1, help="dump_ir processes at once")
    a = ap.parse_args()
    files = []
    for r in a.roots:
        if os.path.isfile(r):
            files.append(r)
            continue
        files += sorted(os.path.join(d, f) for d, _, fs in os.walk(r) for f in fs if f.endswith(".py") and not SKIP.match(f))
    # Roots in the order given (the first root's files first), each root's files sorted.
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, PYPTO_WORK=a.pypto_work)
    log = open(os.path.join(a.out, "_dump_log.tsv"), "w")
    fail = open(os.path.join(a.out, "_dump_failures.txt"), "w")
    n_files = n_kernels = n_fail = 0
    def dump(f):
        try:
            p = subprocess.run([a.python, a.dump_ir, f, "--out", a.out], capture_output=True, text=True,
                               timeout=a.timeout, env=env)
            return f, p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            return f, -1, "timeout"

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results = pool.map(dump, files)
        for f, rc, out in results:
            n_files += 1
            m = re.search(r"\[dump_ir\] (\d+) kernel\(s\)", out)
            k = int(m.group(1)) if m else 0
            n_kernels += k
            errs = [l for l in out.splitlines() if "error" in l.lower() or "failed" in l.lower()]
            last = out.strip().splitlines()[-1] if out.strip() else ""
            log.write(f"{f}\t{rc}\t{k}\t{last[:200]}\n")
            if rc != 0 or errs:
                n_fail += 1
                fail.write(f"== {f} (exit {rc})\n" + "\n".join(out.strip().splitlines()[-8:]) + "\n")
            log.flush()
            fail.flush()
            print(f"[{n_files}/{len(files)}] {f}: exit {rc}, {k} kernel(s)", flush=True)
    print(f"files {n_files}, kernels dumped {n_kernels}, files with dump_ir failures {n_fail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
