#!/usr/bin/env python3
"""Policy cost on a directory of kernels: nominal cycles of `cvsim run` under --v2c off / fence / syncall on
each target, with the findings count and whether the outputs equal the reference.

Usage: scripts/policy_cost.py [KERNEL_DIR] [--cvsim BIN] [--before BIN] [--targets a2a3,a5]
  KERNEL_DIR  default ../shared/kernels (every *.py directly in it)
  --before    a second cvsim binary (e.g. an older build): its cycles are printed beside, as before -> after
Prints a Markdown table. Kernels a policy rejects or cannot run show the exit code instead of cycles.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

POLICIES = ("off", "fence", "syncall")


def run(binary, kernel, target, policy):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = subprocess.run([binary, "run", kernel, "--target", target, "--v2c", policy, "--json", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        if not os.path.exists(out):
            return {"exit": p.returncode}
        with open(out) as f:
            r = json.load(f)
        return {"exit": p.returncode, "cycles": r.get("cycles"), "findings": len(r.get("findings", [])),
                "match": r.get("outputs_match_reference")}


def cell(r):
    if "cycles" not in r or r["cycles"] is None:
        return f"exit {r['exit']}"
    c = r["cycles"]
    if isinstance(c, dict):
        c = c.get("total", c.get("nominal", c))
    s = str(c)
    if r.get("findings"):
        s += f" ({r['findings']} f)"
    if r.get("match") is False:
        s += " ≠ref"
    return s


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default=os.path.join(here, "..", "..", "shared", "kernels"))
    ap.add_argument("--cvsim", default=os.path.join(here, "..", "build", "cvsim"))
    ap.add_argument("--before")
    ap.add_argument("--targets", default="a2a3,a5")
    a = ap.parse_args()
    kernels = sorted(f for f in os.listdir(a.dir) if f.endswith(".py"))
    if not kernels:
        sys.exit(f"no *.py kernel in {a.dir}")
    head = "| kernel | target | " + " | ".join(POLICIES) + " |"
    print(head)
    print("|" + "---|" * (2 + len(POLICIES)))
    for k in kernels:
        path = os.path.join(a.dir, k)
        for t in a.targets.split(","):
            cells = []
            for pol in POLICIES:
                now = cell(run(a.cvsim, path, t, pol))
                if a.before:
                    old = cell(run(a.before, path, t, pol))
                    now = now if old == now else f"{old} → {now}"
                cells.append(now)
            print(f"| {k} | {t} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
