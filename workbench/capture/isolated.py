"""Capture in a child process: for programs the workbench did not write.

Stage: capture. A model's code can abort the interpreter (a C++ ``terminate`` inside a kernel's fake
implementation takes the whole process down, seen with Conv2d+BatchNorm2d+ReLU on the fake device) and
Inductor keeps process-wide state (caches, counters, Dynamo's code cache, patched config). So
:func:`capture_isolated` runs :func:`workbench.capture.capture_run` in a child process of its own
(``python -m workbench.capture.isolated``, forked from a server that has only done the imports:
:mod:`workbench.capture.forkserver`; or a fresh interpreter), which writes its result as JSON (the kernel
record format, validated again on read) and exits; nothing survives from one capture to the next. A crash, a signal or a
timeout becomes a :class:`CaptureError` naming the program and carrying the tail of the child's stderr.

Plain ``subprocess`` rather than ``multiprocessing``: it works from daemonic worker processes (Dask's,
``concurrent.futures``') that may not fork children of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from workbench.capture import Capture, GraphBreak, capture_run
from workbench.capture.record import CapturedKernel
from workbench.errors import CaptureError, WorkbenchError

SCHEMA = "workbench.capture_run/1"
STDERR_TAIL = 1200  # characters of the child's stderr kept in an error


def to_json(c: Capture) -> dict:
    return {
        "schema": SCHEMA,
        "program": c.program,
        "graphs": c.graphs,
        "graph_breaks": [{"reason": b.reason, "where": b.where} for b in c.graph_breaks],
        "dynamic_dims": list(c.dynamic_dims),
        "seconds": c.seconds,
        "notes": list(c.notes),
        "kernels": [k.to_json() for k in c.kernels],
    }


def from_json(d: dict, where: str) -> Capture:
    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        raise CaptureError(f"{where}: not a capture result (schema {d.get('schema') if isinstance(d, dict) else d!r})")
    try:
        return Capture(
            program=str(d["program"]),
            kernels=tuple(CapturedKernel.from_json(k, where) for k in d["kernels"]),
            graphs=int(d["graphs"]),
            graph_breaks=tuple(GraphBreak(str(b["reason"]), str(b["where"])) for b in d["graph_breaks"]),
            dynamic_dims=tuple(str(x) for x in d["dynamic_dims"]),
            seconds=float(d["seconds"]),
            notes=tuple(str(x) for x in d.get("notes", ())),
        )
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        raise CaptureError(f"{where}: malformed capture result ({exc})") from None


def capture_isolated(ref: str, device: str = "cuda", gpu: str = "L4", timeout: float = 1800.0,
                     backward: bool = False, fresh: bool = False, use_cache: bool = True) -> Capture:
    """Capture program ``ref`` (registered name, ``zoo:NAME`` or ``FILE.py``) in a child process of its own:
    forked from this process's capture server (:mod:`workbench.capture.forkserver`), or with ``fresh`` (or
    ``WORKBENCH_CAPTURE_FRESH=1``) a fresh interpreter. A zoo model captured before with the same inputs is
    read from the capture cache instead (:mod:`workbench.capture.cache`; never with ``fresh`` or without
    ``use_cache``), and a new capture of one is kept there."""
    from workbench.capture import cache, forkserver
    from workbench.paths import ROOT

    env = dict(os.environ)
    # the child imports this very checkout of the workbench, whatever its working directory
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    digest = inputs = None
    served = not fresh and forkserver.enabled()
    if served:  # the server's key and the cache's share it (forkserver._key)
        inputs = cache.inputs_digest()
    if served and use_cache and cache.directory() is not None and cache.cacheable(ref):
        digest = cache.key(ref, device, gpu, backward, env, inputs)
        c = _kept(cache.get(digest, ref), ref, device, gpu, backward)
        if c is not None:
            return replace(c, cached=True, notes=(*c.notes, f"the capture of {ref!r} is reused from the capture cache "
                                                  f"({cache.directory()}): the same inputs (docs/capture.md, "
                                                  f"Capture cache); {cache.CACHE_ENV}=off captures anew"))
    with tempfile.TemporaryDirectory(prefix="workbench-capture-child-") as tmp:
        out = Path(tmp) / "capture.json"
        cmd = [sys.executable, "-m", "workbench.capture.isolated", ref, "--device", device, "--gpu", gpu,
               "--out", str(out)]
        from workbench.programs import namespace_module

        if (module := namespace_module(ref)) is not None:  # zoo:NAME: the child registers the same namespace
            cmd += ["--import", module]
        if backward:
            cmd.append("--backward")
        try:
            if fresh or not forkserver.enabled():
                proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                      timeout=timeout, cwd=tmp)
                returncode, stderr = proc.returncode, proc.stderr or ""
            else:  # the same child, forked from a server that has done the imports (forkserver's docstring)
                err = Path(tmp) / "stderr.txt"
                returncode = forkserver.run(cmd[3:], env, tmp, str(err), timeout, inputs)
                stderr = err.read_text(errors="replace") if err.is_file() else ""
        except subprocess.TimeoutExpired:
            raise CaptureError(f"capturing {ref!r} took longer than {timeout:.0f} s; the child was killed") from None
        tail = stderr[-STDERR_TAIL:].strip()
        if returncode < 0:
            sig = signal.Signals(-returncode).name
            raise CaptureError(f"capturing {ref!r} crashed the child process ({sig}); stderr ends: {tail}")
        if returncode == 2:
            said = [ln for ln in stderr.splitlines() if ln.startswith("workbench: error: ")]
            raise CaptureError(said[-1].removeprefix("workbench: error: ") if said else f"capturing {ref!r} "
                               f"failed in the child process; stderr ends: {tail}")
        if returncode != 0 or not out.is_file():
            raise CaptureError(f"capturing {ref!r} failed in the child process (exit {returncode}); "
                               f"stderr ends: {tail}")
        try:
            data = json.loads(out.read_text())
        except json.JSONDecodeError as exc:
            raise CaptureError(f"capture result of {ref!r} is not valid JSON ({exc})") from None
        c = from_json(data, f"capture result of {ref!r}")
        # Kept only if the code did not change while the child ran (the key must describe the code that captured)
        # and the capture is one the key describes (no real GPU).
        if digest is not None and cache.fits(c, ref, device, gpu, backward) and cache.inputs_digest() == inputs:
            cache.put(digest, data, ref)
        return c


def _kept(data: dict | None, ref: str, device: str, gpu: str, backward: bool) -> Capture | None:
    """A cache entry's capture when it reads back as one a capture child writes for this request: a capture
    result that fits it (``cache.fits``: the reference's program, at least one kernel, all of it, the phase and
    the device) whose every record is valid (``record.validate``, source hash included); ``None`` otherwise
    (captured again, and replaced)."""
    from workbench.capture import cache
    from workbench.capture.record import validate

    if data is None:
        return None
    try:
        c = from_json(data, f"cached capture of {ref!r}")
        if not cache.fits(c, ref, device, gpu, backward):
            return None
        for k in c.kernels:
            validate(k, where=f"cached capture of {ref!r}")
    except (WorkbenchError, ArithmeticError, RecursionError):
        return None
    return c


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workbench.capture.isolated")
    p.add_argument("program")
    p.add_argument("--device", default="cuda")
    p.add_argument("--gpu", default="L4")
    p.add_argument("--out", required=True)
    p.add_argument("--backward", action="store_true", help="a training step (forward and backward kernels)")
    p.add_argument("--import", dest="imports", action="append", default=[],
                   help="a module to import first (one that registers the ref's program namespace)")
    args = p.parse_args(argv)
    import importlib

    for module in args.imports:
        if not module.startswith("workbench."):  # only the workbench's own layers register namespaces
            print(f"workbench: error: --import {module!r} is not a workbench module", file=sys.stderr)
            return 2
        importlib.import_module(module)
    try:
        c = capture_run(args.program, device=args.device, gpu=args.gpu, backward=args.backward)
    except WorkbenchError as exc:
        print("workbench: error: " + " ".join(str(exc).split()), file=sys.stderr)  # one line for the parent
        return 2
    Path(args.out).write_text(json.dumps(to_json(c)))
    return 0


if __name__ == "__main__":  # pragma: no cover - the child's entry point
    sys.exit(main())
