#!/usr/bin/env python3
"""cvsim's PyPTO bridge: compile a PyPTO kernel *source* file with PyPTO's own pass pipeline up to
ExpandMixedKernel and write the program PyPTO prints just before that pass (what cvsim reads).

    pypto_bridge.py KERNEL.py (--out FILE [--after FILE] | --out-dir DIR) [--platform a2a3|a5] [--kernel NAME] [--kw NAME=VALUE ...]

cvsim runs it for `cvsim run|check|expand KERNEL.py` when KERNEL.py is a PyPTO source (docs/BRIDGE.md).
KERNEL.py is imported (not run as __main__); its kernels are the module-level `@pl.program` classes
(`ir.Program` objects) and the module-level entry `@pl.jit` functions (orchestration / host), the latter
specialised from their annotations (signature mode; a scalar parameter without --kw stays pl.RUNTIME) or, when
those are bare `pl.Tensor`s, from the sample tensors the file's `__main__` passes (the file is run with every
entry call captured instead of compiled and run). --out-dir writes every kernel of the file, one program each.
PyPTO's default pipeline (`pypto.ir.compile._run_pass_pipeline`, the one `ir.compile` and
`JITFunction.lower` run) is stopped when ExpandMixedKernel is about to run (with --after: once it ran, and
its output is written there too: the parity fixtures, scripts/parity_fixtures.sh); no codegen, no device.

PyPTO is found through PYPTO_WORK (a PyPTO build folder: PYPTO_WORK/pypto/python holds the built module)
or as an importable `pypto`.

Exit codes: 0 written; 2 the kernel could not be compiled (message on stderr); 3 PyPTO is not importable
(stderr says why); 4 the pipeline has no ExpandMixedKernel pass or never reached it.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import re
import sys
import traceback
from pathlib import Path

TARGET_PASS = "ExpandMixedKernel"
EXIT_FAILED, EXIT_NO_PYPTO, EXIT_NOT_REACHED = 2, 3, 4


class _Stop(Exception):
    """Raised from the before-pass callback: the program before ExpandMixedKernel is captured."""


def _fail(code: int, msg: str) -> None:
    sys.stderr.write(msg.rstrip() + "\n")
    sys.exit(code)


def _pypto_paths() -> None:
    work = os.environ.get("PYPTO_WORK")
    if not work:
        return
    src = Path(os.environ.get("PYPTO_SRC", Path(work) / "pypto"))
    for p in (src / "runtime" / "python", src / "runtime", src / "python"):
        if p.is_dir() and str(p) not in sys.path:
            sys.path.insert(0, str(p))
    # The printer formats its output with `ruff` when one is on PATH at import time.
    shim = Path(work) / "bin"
    if (shim / "ruff").exists():
        os.environ["PATH"] = str(shim) + os.pathsep + os.environ.get("PATH", "")


def _import_pypto():
    _pypto_paths()
    try:
        import pypto  # noqa: F401
        import pypto.language as pl
        from pypto import backend, ir
        from pypto.ir.compile import _backend_type_for_platform, _run_pass_pipeline
        from pypto.pypto_core import passes
    except Exception as exc:  # noqa: BLE001
        where = os.environ.get("PYPTO_WORK")
        _fail(EXIT_NO_PYPTO, f"cannot import pypto ({type(exc).__name__}: {str(exc).strip()[:200]})"
              + (f" with PYPTO_WORK={where}" if where else " (PYPTO_WORK is not set)"))
    return pl, backend, ir, passes, _backend_type_for_platform, _run_pass_pipeline


def _literal(v: str, pl):
    if v == "RUNTIME":
        return pl.RUNTIME
    try:
        return ast.literal_eval(v)
    except (ValueError, SyntaxError):
        return v


def _jit_program(fn, kw: dict, pl):
    """The pre-pass program of an entry JIT function, specialised from its annotations."""
    kw = dict(kw)
    for _ in range(64):
        try:
            spec, _cfg = fn._resolve_specialization((), kw, allow_signature_mode=True)
            break
        except TypeError as exc:
            m = re.search(r"scalar parameter '([^']+)' has no value", str(exc))
            if not m or m.group(1) in kw:
                raise
            kw[m.group(1)] = pl.RUNTIME
    prog, _rename = fn._compile_to_program_with_rename_map(
        spec.tensor_meta, spec.scalar_values, spec.scalar_dtypes, spec.per_func_dyn, pl)
    return prog


def _run_main_capturing(kernel: Path, kw: dict, pl, package: str = "") -> dict:
    """Run KERNEL as __main__ with every call (or .compile / .lower) of an entry @pl.jit function captured:
    its program, specialised from the sample tensors the script passes (how a PyPTO user's file whose kernels
    have bare `pl.Tensor` annotations gives their shapes), instead of compiling and running it on a device.
    Returns {name: program} of the first call of each entry; the script's own failure after a captured call
    (a golden comparison with nothing computed) is ignored."""
    from pypto.jit import JITFunction

    captured: dict = {}

    def capture(self, *args, **kwargs):
        if getattr(self, "_func_type", "") not in ("orchestration", "host"):
            return orig_call(self, *args, **kwargs)
        if self.__name__ in captured:
            return None
        call_kw = {k: v for k, v in kwargs.items() if k != "config"}
        call_kw.update({k: v for k, v in kw.items() if k not in call_kw})
        try:
            for _ in range(64):
                try:
                    spec, _cfg = self._resolve_specialization(tuple(args), call_kw, allow_signature_mode=True)
                    break
                except TypeError as exc:
                    m = re.search(r"scalar parameter '([^']+)' has no value", str(exc))
                    if not m or m.group(1) in call_kw:
                        raise
                    call_kw[m.group(1)] = pl.RUNTIME
            prog, _rename = self._compile_to_program_with_rename_map(
                spec.tensor_meta, spec.scalar_values, spec.scalar_dtypes, spec.per_func_dyn, pl)
            captured[self.__name__] = prog
        except Exception as exc:  # noqa: BLE001  (PyPTO's own reason, reported for this kernel)
            captured[self.__name__] = exc
        return None

    orig_call, orig_compile, orig_lower = JITFunction.__call__, JITFunction.compile, JITFunction.lower
    JITFunction.__call__ = capture
    JITFunction.compile = capture
    JITFunction.lower = capture
    saved_argv = sys.argv
    sys.argv = [str(kernel)]
    try:
        # Compiled without its assert statements (optimize=1, as python -O): a golden check after a captured
        # call compares outputs nothing computed, and would stop the script before its next kernel.
        code = compile(kernel.read_text(), str(kernel), "exec", optimize=1)
        glb = {"__name__": "__main__", "__file__": str(kernel), "__builtins__": __builtins__, "__package__": package}
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):  # the script's own prints are not the bridge's report
            exec(code, glb)  # noqa: S102  (the user's own kernel file, as `python KERNEL.py` would run it)
    except BaseException:  # noqa: BLE001  (the script runs on after the stub; what it does then is not ours)
        pass
    finally:
        sys.argv = saved_argv
        JITFunction.__call__, JITFunction.compile, JITFunction.lower = orig_call, orig_compile, orig_lower
    return captured


def _kernels(mod, ir, kw, pl):
    from pypto.jit import JITFunction

    found = []
    for name, obj in vars(mod).items():
        if isinstance(obj, ir.Program):
            found.append((name, lambda o=obj: o))
        elif (isinstance(obj, JITFunction) and getattr(obj, "_func_type", "") in ("orchestration", "host")
              and getattr(obj, "__module__", None) == mod.__name__):
            found.append((name, lambda o=obj: _jit_program(o, kw, pl)))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel")
    ap.add_argument("--out", default=None, help="where to write the program before ExpandMixedKernel")
    ap.add_argument("--out-dir", default=None,
                    help="every kernel of the file: DIR/NAME.before_ExpandMixedKernel.py each (instead of --out)")
    ap.add_argument("--after", default=None, help="also write the program just after ExpandMixedKernel here")
    ap.add_argument("--platform", default="a2a3", choices=["a2a3", "a5"])
    ap.add_argument("--kernel", dest="only", default=None, help="the kernel to compile when the file has several")
    ap.add_argument("--kw", action="append", default=[], help="NAME=VALUE scalar of a @pl.jit entry")
    ap.add_argument("--check-import", action="store_true", help="only check that PyPTO imports")
    args = ap.parse_args()
    if not args.check_import and not args.out and not args.out_dir:
        ap.error("--out or --out-dir is required")

    pl, backend, ir, passes, backend_type_for, run_pipeline = _import_pypto()
    if args.check_import:
        return 0
    kernel = Path(args.kernel).resolve()
    # The kernel's folder and its parents up to a repository root (kernels import siblings).
    d = kernel.parent
    while True:
        if str(d) not in sys.path:
            sys.path.append(str(d))
        if (d / ".git").exists() or d.parent == d:
            break
        d = d.parent
    sys.path.insert(0, str(kernel.parent))
    backend.set_backend_type(backend_type_for(args.platform, backend.BackendType.Ascend910B))
    # A file inside a package (folders with __init__.py) is imported as that package's module, so its
    # relative imports (`from ..config import ...`: PyPTO's qwen3_jit kernels) resolve.
    package = []
    d = kernel.parent
    while (d / "__init__.py").exists() and d.parent != d:
        package.insert(0, d.name)
        d = d.parent
    try:
        if package and kernel.name != "__init__.py":
            sys.path.insert(0, str(d))
            mod = importlib.import_module(".".join(package + [kernel.stem]))
        else:
            spec = importlib.util.spec_from_file_location(kernel.stem, kernel)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[kernel.stem] = mod
            spec.loader.exec_module(mod)
    except Exception as exc:  # noqa: BLE001
        _fail(EXIT_FAILED, f"PyPTO could not parse {args.kernel}:\n" + "".join(traceback.format_exception_only(type(exc), exc)))

    kw = {}
    for item in args.kw:
        k, _, v = item.partition("=")
        kw[k] = _literal(v, pl)
    found = _kernels(mod, ir, kw, pl)
    if args.only:
        found = [k for k in found if k[0] == args.only]
        if not found:
            _fail(EXIT_FAILED, f"{args.kernel} has no @pl.program or entry @pl.jit named '{args.only}'")
    if not found:
        from pypto.jit import JITFunction

        inner = [n for n, o in vars(mod).items() if isinstance(o, JITFunction) and getattr(o, "__module__", None) == mod.__name__]
        if inner:
            _fail(EXIT_FAILED, f"{args.kernel} defines only kernels an entry calls ({', '.join(inner)}: @pl.jit.incore and the like), "
                               "no @pl.program or entry @pl.jit function: check the file whose entry calls them")
        _fail(EXIT_FAILED, f"{args.kernel} defines no module-level @pl.program or entry @pl.jit function")
    if len(found) > 1 and not args.out_dir:
        names = ", ".join(n for n, _ in found)
        _fail(EXIT_FAILED, f"{args.kernel} defines several kernels ({names}): pick one with --pypto-kernel NAME")

    main_programs: dict | None = None

    def program_of(name, build):
        nonlocal main_programs
        try:
            return build()
        except TypeError as exc:
            # A @pl.jit kernel with bare pl.Tensor annotations takes its shapes from the tensors its file's
            # __main__ passes: run the file once and capture those calls (docs/BRIDGE.md).
            if "cannot specialize from the signature" not in str(exc):
                raise
            if main_programs is None:
                main_programs = _run_main_capturing(kernel, kw, pl, ".".join(package))
            if name not in main_programs:
                raise TypeError(f"{exc} (and running the file as __main__ never called '{name}')") from exc
            if isinstance(main_programs[name], Exception):
                raise main_programs[name]
            return main_programs[name]

    def compile_one(name, build):
        """(before, after) texts of one kernel; raises RuntimeError with the reason."""
        state = {"text": None, "after": None, "current": None}

        def before(pass_obj, prog) -> None:
            state["current"] = pass_obj.get_name()
            if state["current"] == TARGET_PASS and state["text"] is None:
                state["text"] = ir.python_print(prog, prefix="pl")
                if not args.after:
                    raise _Stop()

        def after(pass_obj, prog) -> None:
            if pass_obj.get_name() == TARGET_PASS and args.after:
                state["after"] = ir.python_print(prog, prefix="pl")
                raise _Stop()

        cb = passes.CallbackInstrument(before_pass=before, after_pass=after, name="CvsimBridge")
        try:
            program = program_of(name, build)
            run_pipeline(program, operation="cvsim_bridge", platform=args.platform, extra_instruments=(cb,),
                         inherit_outer_report_instruments=False)
        except _Stop:
            pass
        except Exception as exc:  # noqa: BLE001
            if state["text"] is None or (args.after and state["after"] is None):
                at = f" in pass {state['current']}" if state["current"] else ""
                raise RuntimeError(f"PyPTO failed on {name}{at}:\n" + "".join(traceback.format_exception_only(type(exc), exc))) from exc
        if state["text"] is None:
            raise LookupError(f"PyPTO's pipeline never ran {TARGET_PASS} on {name}")
        return state["text"], state["after"]

    def write(path, text):
        Path(path).write_text(text if text.endswith("\n") else text + "\n")

    if args.out_dir:
        # Every kernel of the file, one printed program each (cvsim check/explore check them all).
        written, failures = 0, []
        for name, build in found:
            try:
                text, _after = compile_one(name, build)
            except (RuntimeError, LookupError) as exc:
                failures.append(str(exc))
                continue
            write(Path(args.out_dir) / f"{name}.before_{TARGET_PASS}.py", text)
            written += 1
        for f in failures:
            print(f, file=sys.stderr)
        if written == 0:
            _fail(EXIT_FAILED, "\n".join(failures) if failures else "nothing compiled")
        return 0
    name, build = found[0]
    try:
        text, after_text = compile_one(name, build)
    except RuntimeError as exc:
        _fail(EXIT_FAILED, str(exc))
    except LookupError as exc:
        _fail(EXIT_NOT_REACHED, str(exc))
    for path, t in ((args.out, text), (args.after, after_text)):
        if path:
            write(path, t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
