"""CLI: ``workbench check NAME|FILE.py|KERNEL.json [--mode strict|observable] [--json]`` and
``workbench check --all`` (the corpus table in ``data/check/results.{json,md}``).

Exit codes (workbench.contract): 0 every verdict certified, 1 some kernel refused or out of class, 2 an
input or usage error (one line on stderr). ``--json`` prints one ``workbench.check/1`` document: its
``verdict`` is the worst of the kernels' and ``verdicts`` lists each kernel and mode."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="certify (or refuse, with a reason) narrowing a kernel's size args to int32")
    p.add_argument("target", nargs="?", help="a registered program, a program FILE.py, or a captured KERNEL.json")
    p.add_argument("--mode", choices=["strict", "observable"], help="one mode (default: both)")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    p.add_argument("--all", action="store_true", help="check every kernel under data/kernels/ and write the table")
    p.add_argument("--out", default=None, help="directory for --all's results.{json,md}")
    p.add_argument("--no-smt", action="store_true", help="exact procedure only (no z3 cross-check)")
    p.set_defaults(func=_check)


def records_for(target: str):
    """The captured kernels a target names (capturing a registered program, or FILE.py in a child process,
    when needed)."""
    from workbench.capture.record import load, load_dir

    path = Path(target)
    if target.endswith(".json"):
        return [load(path)]
    if target.endswith(".py") and path.with_suffix(".json").is_file():
        return [load(path.with_suffix(".json"))]  # a captured kernel's source beside its record
    if not target.endswith(".py"):
        from workbench.paths import KERNELS

        saved = KERNELS / target
        if saved.is_dir() and list(saved.glob("*.json")):
            return load_dir(saved)
        return _capture(target)
    return _capture_in_child(target)


_CHILD = """
import json, sys
from workbench.check.cli import _capture
from workbench.errors import WorkbenchError
try:
    kernels = _capture(sys.argv[1])
except WorkbenchError as exc:
    print(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, file=sys.stderr)
    sys.exit(2)
print("@@workbench-records@@" + json.dumps([k.to_json() for k in kernels]))
"""


def _capture_in_child(target: str):
    """Capture a user's FILE.py in a child Python process: the program's code (module level, program(),
    example_inputs()) runs there, never in this process; the records come back as JSON and are validated
    like files. The file was first read as a syntax tree (``programs.load_file``, in the child) so a kernel
    source or a non-program is refused before anything in it runs."""
    import os
    import subprocess
    import sys

    import workbench
    from workbench.capture.record import CapturedKernel, validate
    from workbench.errors import CaptureError

    root = str(Path(workbench.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, "-c", _CHILD, target], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
        raise CaptureError(lines[-1] if lines else f"capturing {target!r} failed (exit {r.returncode})")
    out = [ln for ln in r.stdout.split("\n") if ln.startswith("@@workbench-records@@")]
    if not out:
        raise CaptureError(f"capturing {target!r} returned no records")
    data = json.loads(out[-1][len("@@workbench-records@@"):])
    kernels = [CapturedKernel.from_json(d, where=f"{target} (captured)") for d in data]
    for k in kernels:
        validate(k, where=f"{target} (captured)")
    return kernels


def _capture(target: str):
    """Capture a registered program or FILE.py in memory (nothing is written into the checkout). The
    program's own code runs here: anything it raises is an input error naming the program, never a traceback."""
    from workbench.check.errors import KernelNotFoundError
    from workbench.errors import CaptureError, WorkbenchError

    try:
        from workbench.capture import capture
    except ImportError as exc:  # pragma: no cover - torch missing
        raise KernelNotFoundError(f"cannot capture {target!r} ({exc}); pass a captured KERNEL.json") from None
    try:
        kernels = capture(target)
    except WorkbenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - user program code: report it in one line, exit 2
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise CaptureError(f"capturing {target!r} failed: {type(exc).__name__}: {msg[:200]}; check the "
                           "program's example_inputs() (real CPU tensors) and program(*tensors)") from None
    if not kernels:
        raise KernelNotFoundError(f"{target!r} produced no Triton kernel to check")
    return list(kernels)


def _check(args) -> int:
    from workbench.check.api import MODES, check_kernel
    from workbench.contract import document, emit, exit_code, overall
    from workbench.errors import UsageError

    modes = (args.mode,) if args.mode else MODES
    if args.all:
        from workbench.check.table import check_corpus, corpus_records, summary, write

        rows = check_corpus(corpus_records(), smt=not args.no_smt)
        pj, pm = write(rows, *( [args.out] if args.out else []))
        s = summary(rows)
        print(f"{s['kernels']} kernels: strict {s['strict_certified']} certified, observable "
              f"{s['observable_certified']} certified ({s['observable_only']} only observable)")
        print(f"wrote {pj} and {pm}")
        return 0
    if not args.target:
        raise UsageError("name a program, a FILE.py or a KERNEL.json to check, or pass --all")
    verdicts = [check_kernel(r, m, smt=not args.no_smt) for r in records_for(args.target) for m in modes]
    overall_verdict = overall(v.verdict for v in verdicts)
    if args.json:
        return emit(document("check", 1, overall_verdict, target=args.target, verdicts=[v.to_json() for v in verdicts]))
    else:
        for v in verdicts:
            print(f"{v.program}/{v.kernel} [{v.mode}]: {v.verdict.upper()}")
            print(f"  size args: {', '.join(f'{n}={e}' for n, e in v.size_args) or '-'}")
            print(f"  narrowable: {', '.join(v.narrowable) or '-'}")
            print(f"  {v.reason}")
            for d in v.failed()[:5]:
                o = d.condition.origin
                print(f"  - {d.condition.reason.value}: {o.subexpression} (line {o.line}) on {o.lane_class}: "
                      f"{d.condition.text()} [{d.status.value}]")
    return exit_code(overall_verdict)
