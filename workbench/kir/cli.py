"""``workbench ir`` and ``workbench crosscheck``: print a kernel's IR; compare the evaluator with Triton's interpreter."""

from __future__ import annotations

import argparse

from workbench import workspace


def register(subparsers) -> None:
    p = subparsers.add_parser("ir", help="print a captured kernel's IR (or why it is refused)")
    p.add_argument("kernel", help="a captured KERNEL.json, a folder of them, or a captured program NAME")
    workspace.add_argument(p)
    p.add_argument("--canonical", action="store_true", help="print the canonical form and its hash instead")
    p.set_defaults(func=_ir)
    c = subparsers.add_parser(
        "crosscheck",
        help="compare the IR evaluator with Triton's interpreter at sampled lanes (wide and narrowed)",
    )
    c.add_argument("names", nargs="*", help="programs or kernel names (default: every captured kernel)")
    c.add_argument("--lanes", type=int, default=300, help="lanes per kernel and mode (default 300)")
    c.add_argument("--seed", type=int, default=0)
    c.set_defaults(func=_crosscheck)


def _ir(args: argparse.Namespace) -> int:
    from workbench.kir import canonical_hash, canonical_text, parse, render
    from workbench.resolve import records

    found = records(args.kernel, args.workspace)
    for i, loc in enumerate(found):
        if len(found) > 1:
            print(f"{'' if i == 0 else chr(10)}# {loc.path}")
        k = parse(loc.record)
        if args.canonical:
            print(canonical_text(k), end="")
            print(f"hash {canonical_hash(k)}")
        else:
            print(render(k), end="")
    return 0


def _crosscheck(args: argparse.Namespace) -> int:
    from workbench.errors import UsageError
    from workbench.kir.crosscheck import crosscheck, records_for

    if args.lanes < 1:
        raise UsageError(f"--lanes must be at least 1 (got {args.lanes})")
    reports = crosscheck(records_for(args.names), lanes=args.lanes, seed=args.seed)
    bad = 0
    print(f"{'program':<24} {'kernel':<58} {'wide':>6} {'narrow':>6} {'mismatches':>10}  status")
    for r in reports:
        wide, narrow = r.lanes_by_mode.get("declared", 0), r.lanes_by_mode.get("size args i32", 0)
        print(f"{r.program:<24} {r.kernel:<58} {wide:>6} {narrow:>6} {len(r.mismatches):>10}  {r.status}")
        for m in r.mismatches[:5]:
            print(f"    {m.mode} sizes={dict(m.sizes)} lane={m.lane} {m.access}: evaluator {m.evaluator} "
                  f"interpreter {m.interpreter}")
        bad += len(r.mismatches)
    total = sum(r.lanes for r in reports)
    compared = sum(1 for r in reports if r.status == "compared")
    print(f"total: {compared} kernels compared, {len(reports) - compared} refused, {total} lanes, {bad} mismatches")
    return 1 if bad else 0
