#!/usr/bin/env python3
"""Dump PyPTO's printed IR (before/after ExpandMixedKernel) for every kernel file below some roots.

Usage: scripts/dump_pypto.py OUT_DIR ROOT... [--dump-ir PATH] [--pypto-work DIR] [--timeout S] [--jobs N]

Runs ``dump_ir.py FILE --out OUT_DIR`` (the tool in ../shared/tools/pypto, which needs a PyPTO build)
on each ``*.py`` below each ROOT (``__init__.py``, ``conftest.py``, ``config*.py`` and ``golden*`` files
skipped). Writes OUT_DIR/_dump_log.tsv (file, mode, exit code, kernels dumped, seconds, last line) and
OUT_DIR/_dump_failures.txt (the files where dump_ir itself failed or timed out, with its output tail),
so failures of the dumper are kept apart from what cvsim reads (scripts/read_dumps.py). Output goes
outside the repository: the project never holds upstream kernels or their printed output.

Speed (measured on the 2-core machine, test_syncall.py, 4 programs: 36 s in one python process):
importing PyPTO (+ torch) takes ~8-10 s, the pass pipeline up to ExpandMixedKernel well under 1 s per
program, and PyPTO's printer pipes every print through ``ruff format`` -- here a Node/WASM stand-in
that starts in ~3 s per print (24 s of the 36), and that the printer drops silently after 5 s on a
loaded machine (so a dump is sometimes formatted, sometimes not). So this driver
  * imports PyPTO once and forks one child per (file, mode), each with its own timeout;
  * formats through ONE long-lived Node process (the same Ruff WASM build, same options: line length
    200, double quotes), registered as the printer's format callback, with a 60 s timeout per print
    (raw printer output if it fails; counted in the log).
Modes, tried in turn per file (a later mode only when the earlier found nothing or could not
specialise a ``@pl.jit``): ``import`` (module-level programs, signature-mode ``@pl.jit``, PTOTestCase
classes), ``main`` (run the file as ``__main__``; every ``pl.jit`` call and every ``ir.compile`` --
pypto-lib's ``golden.run`` -- is captured and dumped instead of compiled), ``pytest`` (tests/st files:
run pytest on the file with ``TestRunner.run`` replaced by a dump of the case's program, so
parametrised cases are dumped with their real parameters).
"""
import argparse
import importlib.util
import io
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

SKIP = re.compile(r"^(__init__|conftest|config.*|golden.*|setup|constants|weights|contract|utils)\.py$")

FORMAT_SERVER = r"""
const path = require('path'), net = require('net'), fs = require('fs');
console.log = console.info = console.debug = console.warn = () => {};
const { Workspace, PositionEncoding } = require(path.join(process.argv[2], 'ruffwasm', 'node_modules',
    '@astral-sh', 'ruff-wasm-nodejs'));
const sock = process.argv[3];
const spaces = new Map();
function ws(ll) {
  if (!spaces.has(ll)) spaces.set(ll, new Workspace({ 'line-length': ll, format: { 'quote-style': 'double',
      'indent-style': 'space', 'line-ending': 'lf' } }, PositionEncoding.Utf8));
  return spaces.get(ll);
}
const srv = net.createServer((c) => {
  let buf = Buffer.alloc(0);
  c.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 8) {
      const ll = buf.readUInt32BE(0), n = buf.readUInt32BE(4);
      if (buf.length < 8 + n) break;
      const src = buf.subarray(8, 8 + n).toString('utf8');
      buf = buf.subarray(8 + n);
      let ok = 1, out;
      try { out = Buffer.from(ws(ll).format(src), 'utf8'); } catch (e) { ok = 0; out = Buffer.from(String(e)); }
      const h = Buffer.alloc(5); h.writeUInt8(ok, 0); h.writeUInt32BE(out.length, 1);
      c.write(Buffer.concat([h, out]));
    }
  });
  c.on('error', () => {});
});
try { fs.unlinkSync(sock); } catch (e) {}
srv.listen(sock, () => process.stdout.write('ready\n'));
"""


def start_format_server(pypto_work: str, tmp: str):
    """One Node process running Ruff's WASM formatter; returns (Popen, socket path) or (None, None)."""
    if not os.path.isdir(os.path.join(pypto_work, "ruffwasm")):
        return None, None
    js = os.path.join(tmp, "format_server.js")
    with open(js, "w") as f:
        f.write(FORMAT_SERVER)
    sock = os.path.join(tmp, "fmt.sock")
    p = subprocess.Popen(["node", js, pypto_work, sock], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.stdout.readline().strip() != "ready":
        p.kill()
        return None, None
    return p, sock


class Formatter:
    """The printer's format callback in a child: one connection to the shared Node server."""

    def __init__(self, sock_path):
        self.sock_path = sock_path
        self.conn = None
        self.ok = self.failed = 0

    def __call__(self, code: str) -> str:
        try:
            if self.conn is None:
                self.conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.conn.settimeout(60)
                self.conn.connect(self.sock_path)
            data = code.encode()
            self.conn.sendall(struct.pack(">II", 200, len(data)) + data)
            head = self._read(5)
            out = self._read(struct.unpack(">I", head[1:])[0]).decode()
            if head[0] != 1:
                raise RuntimeError(out)
            self.ok += 1
            # Same contract as pypto.ir.formatter.ruff_format: no trailing newline added.
            if out.endswith("\n") and not code.endswith("\n"):
                out = out[:-1]
            return out
        except Exception:  # noqa: BLE001 -- best effort, like PyPTO's own formatter
            self.failed += 1
            self.conn = None
            return code

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.conn.recv(n - len(b))
            if not c:
                raise EOFError
            b += c
        return b


def preload(a):
    """Parent: import PyPTO, torch and the dumper once (what every child would otherwise redo)."""
    spec = importlib.util.spec_from_file_location("dump_ir", a.dump_ir)
    dump_ir = importlib.util.module_from_spec(spec)
    os.environ["PYPTO_WORK"] = a.pypto_work
    spec.loader.exec_module(dump_ir)
    import pypto  # noqa: F401
    import pypto.language  # noqa: F401
    from pypto import backend, ir  # noqa: F401
    import pypto.ir.compile  # noqa: F401
    import pypto.jit  # noqa: F401
    from pypto.pypto_core import passes  # noqa: F401
    for m in ("torch", "numpy", "pytest"):
        try:
            __import__(m)
        except ImportError:
            pass
    return dump_ir


def install_compile_capture(dumper):
    """--main mode: ``ir.compile(program, ...)`` (e.g. pypto-lib's golden.run) dumps instead of compiling."""
    from pypto import ir

    class _Stub:
        def __getattr__(self, item):
            raise RuntimeError(f"dump stub: no compiled program ({item})")

    def capture(program, *args, **kwargs):
        name = getattr(program, "name", None) or "program"
        if not isinstance(program, ir.Program):
            raise TypeError("dump: ir.compile got a non-Program")
        dumper.run_program(name, program)
        return _Stub()

    ir.compile = capture
    import pypto.ir.compile as c

    c.compile = capture


def child(a, dump_ir, fmt_sock, f, mode, log_path):
    """Runs in the forked child: dump one file in one mode, output to log_path; never returns."""
    os.setpgid(0, 0)
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", 0), write_through=True)
    sys.stderr = sys.stdout
    rc = 0
    try:
        from pypto.pypto_core import ir as _ir_core

        fmt = Formatter(fmt_sock) if fmt_sock else None
        if fmt:
            _ir_core.register_format_callback(fmt)
        orig_dumper = dump_ir.Dumper

        class Dumper(orig_dumper):  # the mode-specific captures need the dumper instance
            def __init__(self, args, stem):
                super().__init__(args, stem)
                if mode == "main":
                    install_compile_capture(self)
                if mode == "pytest":
                    install_pytest_capture(self)

        dump_ir.Dumper = Dumper
        # One output folder per source folder: model files share stems (decode.py, prefill_fwd.py, ...).
        rel = os.path.relpath(os.path.dirname(f), a.pypto_work)
        out = os.path.join(a.out, rel if not rel.startswith("..") else os.path.dirname(f).strip("/"))
        argv = [f, "--out", out, "--platform", a.platform]
        if mode == "main":
            argv += ["--main"]
        if mode == "pytest":
            # dump_ir's --main runs the file as __main__; the capture below runs pytest instead.
            argv += ["--main"]
            install_pytest_main(f)
        sys.argv = ["dump_ir.py"] + argv
        rc = dump_ir.main()
        if fmt:
            print(f"[dump_pypto] formatted {fmt.ok} print(s), {fmt.failed} left raw")
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001
        import traceback

        traceback.print_exc()
        rc = 1
    sys.stdout.flush()
    os._exit(rc or 0)


def install_pytest_main(f):
    """pytest mode: make running the file as __main__ run pytest on it (quietly, no device)."""
    import runpy

    import pytest

    def run_path(path, run_name=None):
        return pytest.main([path, "-q", "-s", "-p", "no:cacheprovider", "--codegen-only", "-o", "addopts="])

    runpy.run_path = run_path


def install_pytest_capture(dumper):
    """pytest mode: TestRunner.run(case) dumps case.get_program() and reports success."""
    try:
        from harness.core import environment
        from harness.core import test_runner as tr
    except ImportError:
        return
    environment.is_hardware_available = lambda *a, **k: True  # runtime/conftest.py skips without a device

    class _Result:
        passed = True
        error = None

        def __getattr__(self, item):
            return None

    def run(self, case, *a, **k):
        name = type(case).__name__
        try:
            name = f"{name}.{case.get_name()}"
        except Exception:  # noqa: BLE001
            pass
        prog = case.get_program()
        if prog is not None:
            dumper.run_program(re.sub(r"[^A-Za-z0-9_.-]", "_", name), prog)
        return _Result()

    tr.TestRunner.run = run
    for n in ("_compile_for_cache", "compile_program"):
        if hasattr(tr, n):
            setattr(tr, n, lambda *a, **k: None)


def out_dir_of(a, f):
    rel = os.path.relpath(os.path.dirname(f), a.pypto_work)
    base = os.path.join(a.out, rel if not rel.startswith("..") else os.path.dirname(f).strip("/"))
    return os.path.join(base, os.path.splitext(os.path.basename(f))[0])


def dedupe(d):
    """A later mode may dump a program an earlier one did (under another label): keep the first."""
    if not os.path.isdir(d):
        return
    seen = {}
    for n in sorted(os.listdir(d)):
        if not n.endswith(".before_ExpandMixedKernel.py"):
            continue
        label = n[: -len(".before_ExpandMixedKernel.py")]
        paths = [os.path.join(d, label + s) for s in (".before_ExpandMixedKernel.py", ".after_ExpandMixedKernel.py")]
        key = tuple(re.sub(r"^# .*\n", "", open(p).read()) if os.path.exists(p) else "" for p in paths)
        if key in seen:
            for p in paths + [os.path.join(d, label + ".status.txt")]:
                if os.path.exists(p):
                    os.remove(p)
        else:
            seen[key] = label


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--dump-ir", default="/work/shared/tools/pypto/dump_ir.py")
    ap.add_argument("--pypto-work", default=os.environ.get("PYPTO_WORK", "/work/pypto-work"))
    ap.add_argument("--platform", default="a2a3")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per file and mode (default 300)")
    ap.add_argument("--jobs", type=int, default=1, help="children at once (default 1)")
    ap.add_argument("--modes", default="import,pytest,main", help="modes to try in turn (default all)")
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)
    files = []
    for r in a.roots:
        if os.path.isfile(r):
            files.append(os.path.abspath(r))
            continue
        files += sorted(os.path.abspath(os.path.join(d, f)) for d, _, fs in os.walk(r) for f in fs
                        if f.endswith(".py") and not SKIP.match(f))
    os.makedirs(a.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="dump_pypto_")
    t0 = time.time()
    dump_ir = preload(a)
    print(f"[dump_pypto] PyPTO imported in {time.time() - t0:.1f} s", flush=True)
    fmt_proc, fmt_sock = start_format_server(a.pypto_work, tmp)
    print(f"[dump_pypto] format server: {'on' if fmt_sock else 'OFF (raw printer output)'}", flush=True)
    modes = a.modes.split(",")
    log = open(os.path.join(a.out, "_dump_log.tsv"), "w")
    fail = open(os.path.join(a.out, "_dump_failures.txt"), "w")
    todo = [(f, 0) for f in files]  # (file, index into modes)
    running = {}  # pid -> (file, mode index, log path, start)
    n_done = n_kernels = n_fail = 0
    src_cache = {}

    def wants(f, mi):
        m = modes[mi]
        src = src_cache.setdefault(f, open(f, errors="replace").read())
        is_test = "pytest" in src and "def test_" in src
        if m == "main":
            return "__main__" in src and not is_test
        if m == "pytest":
            return is_test
        return True

    while todo or running:
        while todo and len(running) < max(1, a.jobs):
            f, mi = todo.pop(0)
            lp = os.path.join(tmp, f"c{len(running)}_{os.getpid()}_{time.time_ns()}.log")
            pid = os.fork()
            if pid == 0:
                child(a, dump_ir, fmt_sock, f, modes[mi], lp)
            running[pid] = (f, mi, lp, time.time())
        time.sleep(0.2)
        for pid, (f, mi, lp, start) in list(running.items()):
            wpid, status = os.waitpid(pid, os.WNOHANG)
            if wpid == 0 and time.time() - start < a.timeout:
                continue
            if wpid == 0:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                rc = -1
            else:
                rc = os.waitstatus_to_exitcode(status)
            del running[pid]
            out = open(lp, errors="replace").read()
            os.remove(lp)
            if rc == -1:
                out += "\ntimeout"
            secs = time.time() - start
            ks = re.findall(r"^\[dump_ir\] (\S+): ok", out, re.M)
            n_kernels += len(ks)
            failed_spec = "specialization/parse failed" in out or "could not build" in out
            last = out.strip().splitlines()[-1] if out.strip() else ""
            log.write(f"{f}\t{modes[mi]}\t{rc}\t{len(ks)}\t{secs:.0f}\t{last[:200]}\n")
            if rc != 0 or failed_spec or not ks:
                fail.write(f"== {f} [{modes[mi]}] (exit {rc}, {len(ks)} kernel(s))\n"
                           + "\n".join(out.strip().splitlines()[-8:]) + "\n")
            log.flush()
            fail.flush()
            print(f"[{n_done + 1}/{len(files)}] {f} [{modes[mi]}]: exit {rc}, {len(ks)} kernel(s), {secs:.0f} s",
                  flush=True)
            dedupe(out_dir_of(a, f))
            nxt = mi + 1
            while nxt < len(modes) and not wants(f, nxt):
                nxt += 1
            if (not ks or failed_spec) and nxt < len(modes):
                todo.insert(0, (f, nxt))
            else:
                n_done += 1
                if rc != 0 or not ks:
                    n_fail += 1
    if fmt_proc:
        fmt_proc.kill()
    print(f"files {n_done}, kernels dumped {n_kernels}, files without a dump {n_fail}, "
          f"{time.time() - t0:.0f} s")
    json.dump({"files": n_done, "kernels": n_kernels, "files_without_dump": n_fail},
              open(os.path.join(a.out, "_dump_summary.json"), "w"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
