"""CLI: ``workbench check NAME|DIR|FILE.py|KERNEL.json [--mode strict|observable|partial] [--json]``
(certificates saved in the workspace's ``certificates/``; a kernel of several whose record cannot be read
gets the verdict ``error`` with the reason, the others their own) and ``workbench check --all`` (the corpus table in
the workspace's ``check/results.{json,md}``; ``--out data/check`` is the developer command that regenerates
the shipped table); ``--all --mode partial`` checks every corpus kernel in partial mode and
prints the counts (the table stays the N modes').

Exit codes (workbench.contract): 0 every verdict certified, 1 some kernel refused or out of class, 2 an
input or usage error (one line on stderr). ``--json`` prints one ``workbench.check/1`` document: its
``verdict`` is the worst of the kernels' and ``verdicts`` lists each kernel and mode."""

from __future__ import annotations

import argparse
from workbench import workspace


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="certify (or refuse, with a reason) narrowing a kernel's size args to int32")
    p.add_argument("target", nargs="?", help="a registered program, a program FILE.py, or a captured KERNEL.json")
    p.add_argument("--mode", choices=["strict", "observable", "partial"],
                   help="one mode (default: strict and observable; partial: only // and %% computed in int32)")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    p.add_argument("--all", action="store_true", help="check every kernel under data/kernels/ and write the table")
    p.add_argument("--out", default=None, help="directory for --all's results.{json,md} (default: the workspace's "
                   "check/; `--out data/check` regenerates the shipped table)")
    p.add_argument("--no-smt", action="store_true", help="exact procedure only (no z3 cross-check)")
    workspace.add_argument(p)
    p.set_defaults(func=_check)


def records_for(target: str, workspace=None):
    """The captured kernels a target names: NAME|DIR|KERNEL.json|CERT.json|FILE.py (see
    :mod:`workbench.resolve`); a registered program or FILE.py not captured yet is captured into the
    workspace, never into the checkout (a user's FILE.py in a child process)."""
    from workbench.resolve import records

    return records(target, workspace, capture=True)


def _check(args) -> int:
    from workbench.check.api import MODES, check_kernel
    from workbench.contract import document, emit, exit_code, overall
    from workbench.check.api import Verdict
    from workbench.errors import InputError, UsageError

    modes = (args.mode,) if args.mode else MODES
    if args.all and args.mode == "partial":
        return _partial_corpus(args)
    if args.all:
        from workbench.check.table import check_corpus, corpus_records, summary, write

        records = corpus_records()
        rows = check_corpus(records, smt=not args.no_smt)
        pj, pm = write(rows, args.out or workspace.workspace(args.workspace) / "check", records=records)
        s = summary(rows)
        if args.json:  # a table command: "ok" once written; the per-kernel verdicts are in the table
            return emit(document("check", 1, "ok", target="--all", summary=s, results=str(pj), markdown=str(pm)))
        print(f"{s['kernels']} kernels: strict {s['strict_certified']} certified, observable "
              f"{s['observable_certified']} certified ({s['observable_only']} only observable)")
        print(f"wrote {pj} and {pm}")
        return 0
    if not args.target:
        raise UsageError("name a program, a FILE.py or a KERNEL.json to check, or pass --all")
    from workbench.resolve import save_certificate

    verdicts, saved = [], []
    located = records_for(args.target, args.workspace)
    for loc in located:
        for m in modes:
            try:
                v = check_kernel(loc.record, m, smt=not args.no_smt)
            except InputError as exc:
                if len(located) == 1:
                    raise  # one kernel: its input error is the command's (exit 2)
                # several kernels: this one gets the verdict "error" and the others their own (exit 1)
                v = Verdict(loc.record.name, loc.record.program, m, "error", str(exc), (), None)
            verdicts.append(v)
            if v.certificate is not None:
                saved.append(save_certificate(v.certificate, loc, args.workspace))
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
        if saved:
            print(f"certificates saved in {saved[0].parent}/ (next: workbench rule show, workbench lean emit FILE)")
    return exit_code(overall_verdict)


def _partial_corpus(args) -> int:
    """``check --all --mode partial``: every corpus kernel in partial mode; prints the counts (or one
    ``workbench.check/1`` document with ``--json``); writes nothing."""
    from workbench.check.api import check_kernel
    from workbench.check.table import corpus_records
    from workbench.contract import document, emit, exit_code, overall

    verdicts = [check_kernel(r, "partial", smt=not args.no_smt) for r in corpus_records()]
    worst = overall(v.verdict for v in verdicts)
    counts = {s: sum(v.verdict == s for v in verdicts) for s in ("certified", "refused", "out-of-class")}
    if args.json:
        return emit(document("check", 1, worst, target="--all", mode="partial", counts=counts,
                             verdicts=[v.to_json() for v in verdicts]))
    for v in verdicts:
        if v.verdict != "certified":
            print(f"{v.program}/{v.kernel} [partial]: {v.verdict.upper()}: {v.reason}")
    print(f"{len(verdicts)} kernels: partial {counts['certified']} certified, {counts['refused']} refused, "
          f"{counts['out-of-class']} out of class")
    return exit_code(worst)
