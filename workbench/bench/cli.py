"""``workbench bench``: run a pre-registered timing plan and report a run record.

``workbench bench run PLAN.json --out RUN.json [--dry-run]`` and ``workbench bench report RUN.json
[--out figures/] [--plan PLAN.json]``; the same commands run as ``python -m workbench.bench ...`` on a CUDA
machine. ``worker`` is internal: one process of a multi-process run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _run(args: argparse.Namespace) -> int:
    from workbench.bench import harness

    rec = harness.run(args.plan, args.out, dry_run=args.dry_run)
    bad = [c for c in rec["correctness"] if not c["bitwise_equal"]]
    print(f"wrote {args.out}: {rec['mode']}, {len(rec['blocks'])} blocks, "
          f"{len(rec['correctness']) - len(bad)}/{len(rec['correctness'])} variant-shape checks bitwise equal to eager")
    if args.dry_run:
        print("dry run: correctness only, nothing was timed")
    return 1 if bad else 0


def _report(args: argparse.Namespace) -> int:
    from workbench.bench import report

    r = report.report(args.record, args.out, args.plan)
    print(r.text, end="")
    print(f"wrote {r.markdown} and {len(r.figures)} figures under {args.out}")
    return 0


def _worker(args: argparse.Namespace) -> int:
    from workbench.bench import harness
    from workbench.bench import plan as plan_mod

    plan, _ = plan_mod.load(args.plan)
    part = harness.run_process(plan, args.process, args.dry_run)
    Path(args.out).write_text(json.dumps(part, allow_nan=False))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run a plan: compile the variants, check them against eager, time the blocks")
    run.add_argument("plan", metavar="PLAN.json")
    run.add_argument("--out", required=True, metavar="RUN.json", help="where to write the run record")
    run.add_argument("--dry-run", action="store_true",
                     help="CPU only: the same harness under Triton's interpreter at tiny shapes, no timings")
    run.set_defaults(func=_run)
    rep = sub.add_parser("report", help="tables and figures from a run record (refuses a changed plan)")
    rep.add_argument("record", metavar="RUN.json")
    rep.add_argument("--out", default="figures", metavar="DIR", help="output folder (default: figures/)")
    rep.add_argument("--plan", default=None, metavar="PLAN.json", help="check this plan file against the record")
    rep.set_defaults(func=_report)
    w = sub.add_parser("worker", help="internal: one process of a multi-process run (started by `run`)")
    w.add_argument("plan")
    w.add_argument("--process", type=int, required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--dry-run", action="store_true")
    w.set_defaults(func=_worker)


def register(subparsers: argparse._SubParsersAction) -> None:
    bench = subparsers.add_parser("bench", help="paired, pre-registered timing of kernel variants")
    add_commands(bench.add_subparsers(dest="bench_command", metavar="COMMAND", required=True))
