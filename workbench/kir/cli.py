"""``workbench ir`` and ``workbench crosscheck``: print a kernel's IR; compare the evaluator with Triton's interpreter.

Exit codes (workbench.contract): ``ir`` 0 when the kernel is in the IR's class, 1 when it is refused by name
(verdict ``out-of-class``), 2 for an unreadable record; ``crosscheck`` 0 when no lane disagrees, 1 when some
lane does (verdict ``not-equivalent``), 2 for bad arguments. ``--json`` prints one ``workbench.ir/1`` or
``workbench.crosscheck/1`` document."""

from __future__ import annotations

import argparse

from workbench import workspace


def register(subparsers) -> None:
    p = subparsers.add_parser("ir", help="print a captured kernel's IR (or why it is refused)")
    p.add_argument("kernel", help="a captured KERNEL.json, a folder of them, or a captured program NAME")
    workspace.add_argument(p)
    p.add_argument("--canonical", action="store_true", help="print the canonical form and its hash instead")
    p.add_argument("--json", action="store_true", help="print a workbench.ir/1 JSON document")
    p.set_defaults(func=_ir)
    c = subparsers.add_parser(
        "crosscheck",
        help="compare the IR evaluator with Triton's interpreter at sampled lanes (wide and narrowed)",
    )
    c.add_argument("names", nargs="*", help="programs or kernel names (default: every captured kernel)")
    c.add_argument("--lanes", type=int, default=300, help="lanes per kernel and mode (default 300)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--json", action="store_true", help="print a workbench.crosscheck/1 JSON document")
    c.set_defaults(func=_crosscheck)


def _ir(args: argparse.Namespace) -> int:
    from workbench.contract import Verdict, document, emit, overall
    from workbench.errors import UnsupportedError
    from workbench.kir import canonical_hash, canonical_text, parse, render
    from workbench.resolve import records

    found = records(args.kernel, args.workspace)
    docs, verdicts = [], []
    for i, loc in enumerate(found):
        record = loc.record
        if len(found) > 1 and not args.json:
            print(f"{'' if i == 0 else chr(10)}# {loc.path}")
        try:
            k = parse(record)
        except UnsupportedError as exc:
            verdicts.append(Verdict.OUT_OF_CLASS)
            docs.append({"kernel": record.name, "program": record.program, "verdict": Verdict.OUT_OF_CLASS.value,
                         "reason": str(exc)})
            if not args.json:
                print(f"{record.program}/{record.name}: OUT-OF-CLASS: {exc}")
            continue
        text = canonical_text(k) if args.canonical else render(k)
        verdicts.append(Verdict.OK)
        docs.append({"kernel": record.name, "program": record.program, "verdict": Verdict.OK.value,
                     "canonical": args.canonical, "text": text, "hash": canonical_hash(k)})
        if not args.json:
            print(text, end="")
            if args.canonical:
                print(f"hash {canonical_hash(k)}")
    if args.json:
        if len(docs) == 1:
            one = dict(docs[0])
            return emit(document("ir", 1, one.pop("verdict"), **one))
        return emit(document("ir", 1, overall(verdicts), kernels=docs))
    return 0 if all(v is Verdict.OK for v in verdicts) else 1


def _crosscheck(args: argparse.Namespace) -> int:
    from workbench.contract import Verdict, document, emit
    from workbench.errors import UsageError
    from workbench.kir.crosscheck import crosscheck, records_for

    if args.lanes < 1:
        raise UsageError(f"--lanes must be at least 1 (got {args.lanes})")
    reports = crosscheck(records_for(args.names), lanes=args.lanes, seed=args.seed)
    bad = sum(len(r.mismatches) for r in reports)
    total = sum(r.lanes for r in reports)
    compared = sum(1 for r in reports if r.status == "compared")
    if args.json:
        return emit(document("crosscheck", 1, Verdict.NOT_EQUIVALENT if bad else Verdict.OK, lanes=total,
                             compared=compared, refused=len(reports) - compared, mismatches=bad, kernels=[
                                 {"program": r.program, "kernel": r.kernel, "status": r.status, "lanes": r.lanes,
                                  "lanes_by_mode": dict(r.lanes_by_mode), "mismatches": [
                                      {"mode": m.mode, "sizes": dict(m.sizes), "lane": str(m.lane),
                                       "access": str(m.access), "evaluator": str(m.evaluator),
                                       "interpreter": str(m.interpreter)} for m in r.mismatches]}
                                 for r in reports]))
    print(f"{'program':<24} {'kernel':<58} {'wide':>6} {'narrow':>6} {'mismatches':>10}  status")
    for r in reports:
        wide, narrow = r.lanes_by_mode.get("declared", 0), r.lanes_by_mode.get("size args i32", 0)
        print(f"{r.program:<24} {r.kernel:<58} {wide:>6} {narrow:>6} {len(r.mismatches):>10}  {r.status}")
        for m in r.mismatches[:5]:
            print(f"    {m.mode} sizes={dict(m.sizes)} lane={m.lane} {m.access}: evaluator {m.evaluator} "
                  f"interpreter {m.interpreter}")
    print(f"total: {compared} kernels compared, {len(reports) - compared} refused, {total} lanes, {bad} mismatches")
    return 1 if bad else 0
