"""CLI: ``workbench oracle NAME... | --all [--json] [--write DIR] [--texts FILE]`` — the independent oracle over
the kernels the checker table certifies (``data/check/results.json``), or over the texts the rule compiles
(``--texts``: a ``workbench.rule-texts/1`` file, every certified kernel in every mode, P included)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "oracle",
        help="run certified kernels' wide and narrowed text under Triton's interpreter and compare lane by lane",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="a program, a kernel or program/kernel from the table")
    p.add_argument("--all", action="store_true", help="every kernel the checker table certifies")
    p.add_argument("--json", action="store_true", help="print the workbench.oracle/1 document")
    p.add_argument("--write", metavar="DIR", default=None,
                   help="also write results.json and results.md to DIR (the shipped copy: --write data/oracle)")
    p.add_argument("--table", metavar="FILE", default=None, help="checker table (default: data/check/results.json)")
    p.add_argument("--kernels", metavar="DIR", default=None, help="kernel records (default: data/kernels)")
    p.add_argument("--texts", metavar="FILE", default=None,
                   help="run the texts the rule compiles (a workbench.rule-texts/1 file from `workbench rule texts "
                        "--out FILE`: every certified kernel in strict, observable and partial mode) instead of "
                        "the oracle's own narrowing of the table's kernels")
    p.add_argument("--seed", type=int, default=0, help="seed of the random shapes and program ids (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="interpreter worker processes (default 1)")
    p.add_argument("--index-draw", choices=("inside", "outside"), default="inside",
                   help="index tables inside the device asserts' ranges (default), or partly outside them (a "
                        "control: those lanes must be reported as outside the premise)")
    p.set_defaults(func=_oracle)


def _shown(path: Path) -> str:
    from workbench.paths import ROOT

    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _oracle(args) -> int:
    from workbench.contract import emit, exit_code
    from workbench.errors import UsageError
    from workbench.oracle.corpus import TABLE, select, targets
    from workbench.oracle.report import to_document, write
    from workbench.oracle.run import check
    from workbench.paths import KERNELS

    if args.all == bool(args.names):
        raise UsageError("name kernels or programs to check, or pass --all (not both)")
    if args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: need at least 1 worker process")
    table = Path(args.texts or args.table or TABLE)
    if args.texts:
        from workbench.oracle.corpus import text_targets

        chosen = text_targets(table, Path(args.kernels) if args.kernels else KERNELS)
    else:
        chosen = targets(table, Path(args.kernels) if args.kernels else KERNELS)
    if args.names:
        chosen = select(chosen, args.names)
    start = time.monotonic()
    results = check(chosen, seed=args.seed, jobs=args.jobs, draw=args.index_draw)  # progress on stderr after 2 s
    seconds = time.monotonic() - start
    doc = to_document(results, _shown(table))
    if args.write:
        pj, pm = write(doc, args.write)
        print(f"wrote {pj} and {pm}", file=sys.stderr)
    if args.json:
        return emit(doc)
    for r in results:
        print(f"{r.program}/{r.kernel} [narrowed: {', '.join(r.narrowed) or '-'}; certified {', '.join(r.modes)}]: "
              f"{r.verdict.upper()}")
        print(f"  {r.reason}")
        for f in r.findings[:5]:
            print(f"  - {f.shape} {dict(f.values)} program {f.pid} index {f.index}: {f.access} {f.what}: "
                  f"wide {f.wide} narrowed {f.narrowed}")
    s = doc["summary"]
    print(f"{s['kernels']} kernels ({s['agreeing']} agreeing), {s['shapes']} shapes, {s['programs']} programs, "
          f"{s['active_lanes']} active lanes, {s['accesses']} lane-accesses compared, "
          f"{s['disagreements']} disagreements ({seconds:.1f} s)")
    if s["steps_run"] or s["asserts"] or s["outside_premise"]:
        print(f"  reductions: {s['steps_run']} loop steps run ({s['full_loop_shapes']} shapes with full loops, "
              f"{s['sampled_loop_shapes']} sampled); device asserts: {s['asserts']} (assert, lane) pairs inside "
              f"the premise, {s['outside_premise']} lanes outside it set apart")
    return exit_code(doc["verdict"])
