"""CLI: ``workbench rule texts --out FILE`` writes the module text the rule compiles for every certified corpus
kernel in every mode (what ``workbench oracle --texts FILE`` runs). ``workbench rule show NAME|FILE.py
[--mode strict|observable|partial] [--json]`` — for each kernel of
a program, whether a certificate of the requested mode bound (and which), which premises matched, or which
one failed. ``--mode partial`` binds variant P's certificates and compiles P (the int64 ``//`` and ``%`` in
int32; size arguments stay i64). Evidence of what was compiled, read back from the compiled kernel text: the
size arguments' declared types and the ``//``/``%`` sites by width (``sites_as_compiled`` in JSON). The certificate store is the workspace's records and certificates, then the shipped corpus
(:func:`workbench.resolve.certificate_store`).

``show`` only reports, so it exits 0 whatever bound (docs/cli.md); input errors exit 2 with one line. The
JSON form is a ``workbench.rule-show/1`` document whose verdict is ``bound`` when every kernel bound, else
``unbound``."""

from __future__ import annotations

import argparse

from workbench import workspace

from workbench.rule.store import MODES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rule", help="the narrowing rule: which certificates bind to a live compilation")
    rsub = p.add_subparsers(dest="rule_command", metavar="SUBCOMMAND")
    s = rsub.add_parser("show", help="compile a program with the rule on and explain each kernel's binding")
    s.add_argument("program", help="a registered program name or FILE.py")
    s.add_argument("--device", default="cuda", choices=["cuda", "fake-cuda"], help="capture device")
    workspace.add_argument(s)
    s.add_argument("--mode", default="observable", choices=MODES,
                   help="bind only certificates of this checker mode (default observable; partial: variant P)")
    s.add_argument("--json", action="store_true", help="print a workbench.rule-show/1 JSON document")
    s.set_defaults(func=_show)
    t = rsub.add_parser("texts", help="write the module text the rule compiles for every certified kernel and mode")
    t.add_argument("--out", required=True, metavar="FILE", help="the workbench.rule-texts/1 JSON file to write")
    t.add_argument("--kernels", metavar="DIR", default=None, help="kernel records (default: data/kernels)")
    t.add_argument("--mode", action="append", choices=MODES, default=None,
                   help="a mode (repeatable; default: strict, observable and partial)")
    t.add_argument("--json", action="store_true", help="print a workbench.rule-texts-summary/1 document")
    t.set_defaults(func=_texts)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _texts(args) -> int:
    """``rule texts``: the texts ``workbench oracle --texts FILE`` runs (docs/rule.md)."""
    import json
    from pathlib import Path

    from workbench import progress
    from workbench.check.table import corpus_records
    from workbench.paths import KERNELS
    from workbench.rule.compiled import rule_texts

    from workbench.contract import Verdict, document, emit
    from workbench.errors import InputError

    modes = tuple(args.mode or MODES)
    root = Path(args.kernels) if args.kernels else KERNELS
    records = corpus_records(root)
    if not records:
        raise InputError(f"--kernels {root}: no kernel records (<program>/<kernel>.json) there; capture some with "
                         "`workbench capture NAME --out DIR/NAME`")
    bar = progress.Counter(len(records) * len(modes), "rule texts", "check")
    try:
        doc = rule_texts(records, modes, step=bar.update)
    finally:
        bar.close()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    tmp.replace(out)  # nothing half-written
    counts = {m: sum(t["mode"] == m for t in doc["texts"]) for m in modes}
    if args.json:
        return emit(document("rule-texts-summary", 1, Verdict.OK, out=str(out), texts=counts,
                             refused=doc["refused"]))
    print(f"wrote {out}: {len(doc['texts'])} texts ({', '.join(f'{m} {n}' for m, n in counts.items())}), "
          f"{len(doc['refused'])} refused by validation")
    return 0


def _show(args) -> int:
    from workbench import progress
    from workbench.capture import capture
    from workbench.contract import Verdict, document, emit
    from workbench.programs import resolve
    from workbench.resolve import certificate_store
    from workbench.rule import narrowing

    program = resolve(args.program)  # a bad name or file fails here, before the store is loaded
    store = certificate_store(args.workspace, args.mode)  # workspace, then the shipped corpus
    with progress.phase(f"compile {args.program} with the rule on"), narrowing(store, mode=args.mode) as decisions:
        kernels = capture(program, device=args.device)
    sig = {k.name: {a.name: k.signature[a.name] for a in k.size_args} for k in kernels}
    sites = {k.name: _sites(k) for k in kernels}
    if args.json:
        verdict = Verdict.BOUND if decisions.bindings and all(b.bound for b in decisions.bindings) else Verdict.UNBOUND
        emit(document("rule-show", 1, verdict, program=args.program, mode=args.mode, bindings=[
            {"kernel": b.kernel, "verdict": (Verdict.BOUND if b.bound else Verdict.UNBOUND).value,
             "certificate": b.certificate, "mode": b.mode, "renaming": dict(b.renaming),
             "matched": list(b.matched), "failed": b.failed, "narrowed": list(b.narrow)}
            for b in decisions.bindings], size_args_as_compiled=sig, sites_as_compiled=sites))
        return 0
    print(f"rule: binding {args.mode} certificates only")
    for b in decisions.bindings:
        print(b.explain())
    for name, types in sig.items():
        print(f"{name}: size arguments as compiled: {', '.join(f'{a}: {t}' for a, t in types.items()) or '(none)'}")
        if sites[name] is not None:
            print(f"{name}: // and % on indices as compiled: {sites[name]['int32']} in int32, "
                  f"{sites[name]['int64']} in int64; on loaded data: {sites[name]['payload']} (never rewritten)")
    return 0


def _sites(kernel) -> dict[str, int] | None:
    """The compiled kernel's integer ``//`` and ``%`` nodes in its IR (kir's parse of the text Triton compiled),
    by width, and the payload ones (on loaded data) apart; None outside kir's class."""
    from workbench import kir
    from workbench.errors import WorkbenchError
    from workbench.kir.nodes import is_integer_division

    try:
        k = kir.parse(kernel, check_versions=False)
    except WorkbenchError:
        return None
    divs = [n for n in kir.walk(*k.roots()) if is_integer_division(n)]
    index = [n for n in divs if n.op is not kir.Op.PAYLOAD]
    return {"int32": sum(n.type == kir.i32 for n in index), "int64": sum(n.type == kir.i64 for n in index),
            "payload": len(divs) - len(index)}
