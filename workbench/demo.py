"""``workbench demo``: the pipeline end to end on report 1's program, on the embedded default (no GPU, no
Lean): capture ``nested_cat_add`` through the fake CUDA device and print its fused kernel's size arguments
with their symbolic expressions and the int32 guard; its IR; the checker's verdicts in both modes; the rule
binding the certificate to a live compilation; and the Lean instance text (not checked by Lean here unless
Lean is installed)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the pipeline end to end on nested_cat_add (no GPU, no Lean needed)")
    p.add_argument("--program", default="nested_cat_add", help="registered program (default nested_cat_add)")
    p.add_argument("--json", action="store_true",
                   help="print a workbench.demo/1 document (per-stage items with their verdicts) instead of the tour")
    p.set_defaults(func=run)


def _head(n: int, title: str) -> None:
    if _QUIET:
        return
    print(f"\n== {n}. {title} " + "=" * max(0, 70 - len(title)))


_QUIET = False


def run(args) -> int:
    """The tour; with ``--json`` the same steps run silently and one document is printed. The demo's own
    verdict is ``ok`` when every stage ran (a refused mode is a finding the tour shows, not a failure)."""
    import contextlib
    import io

    global _QUIET
    if not args.json:
        return _run(args, {})
    items: dict = {}
    _QUIET = True
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            _run(args, items)
    finally:
        _QUIET = False
    from workbench import contract

    return contract.emit(contract.document("demo", 1, contract.Verdict.OK, program=args.program, **items))


def _run(args, items: dict) -> int:
    from workbench import kir
    from workbench.capture import capture
    from workbench.capture.show import describe
    from workbench.check.api import check_kernel
    from workbench.errors import WorkbenchError
    from workbench.lean.adapter import from_certificate
    from workbench.lean.check import lean_status
    from workbench.lean.emit import emit_instance
    from workbench.rule import load_store, narrowing

    _head(1, f"capture {args.program} (torch.compile(dynamic=True), Inductor's GPU lowering)")
    from workbench import progress

    with progress.phase(f"capture {args.program}"):
        kernels = capture(args.program)
    items["capture"] = [{"kernel": k.name, "id": k.source_hash[:12], "verdict": "ok"} for k in kernels]
    for k in kernels:
        print(describe(k))

    _head(2, "kernel IR (workbench.kir)")
    for k in kernels:
        try:
            print(kir.render(k))
        except WorkbenchError as exc:
            print(f"{k.name}: refused: {exc}")

    _head(3, "narrowing check (workbench.check): may the size arguments be int32?")
    verdicts = {}
    for k in kernels:
        for mode in ("strict", "observable"):
            v = check_kernel(k, mode)
            verdicts[(k.name, mode)] = v
            items.setdefault("checks", []).append({"kernel": k.name, "mode": mode, "verdict": v.verdict})
            print(f"{k.name} [{mode}]: {v.verdict.upper()} — {v.reason}")
            if v.certified:
                print(f"  narrowable: {', '.join(v.narrowable)}; {len(v.discharged)} side conditions, e.g.")
                for d in v.discharged[:3]:
                    print(f"    {d.condition.text()}  [{d.status.value} by {d.prover}]")

    _head(4, "the rule (workbench.rule): bind the certificate to a live compilation")
    with narrowing(load_store()) as decisions:
        narrowed = capture(args.program)
    for b in decisions.bindings:
        print(b.explain())
        items.setdefault("bindings", []).append({"kernel": b.kernel, "verdict": "bound" if b.bound else "unbound"})
    for k in narrowed:
        print(f"{k.name} as compiled with the rule on: "
              + ", ".join(f"{a.name}: {k.signature[a.name]}" for a in k.size_args))

    _head(5, "Lean (workbench.lean): the instance of the generic theorem")
    status = lean_status()
    for k in kernels:
        v = verdicts[(k.name, "observable")]
        if not v.certified:
            print(f"{k.name}: no instance (not certified)")
            continue
        try:
            text = emit_instance(from_certificate(v.certificate, k.name, record=k))
        except WorkbenchError as exc:
            print(f"{k.name}: no instance: {exc}")
            continue
        items.setdefault("lean", []).append({"kernel": k.name, "verdict": "ok", "lines": len(text.splitlines())})
        lines = text.splitlines()
        print("\n".join(lines[:12]))
        print(f"... ({len(lines)} lines; `workbench lean emit {args.program}` writes it)")
    print(status["summary"])
    return 0
