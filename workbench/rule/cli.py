"""CLI: ``workbench rule show NAME|FILE.py`` — for each kernel of a program, whether a certificate bound and
which premises matched, or which one failed. The certificate store is the workspace's records and
certificates, then the shipped corpus (:func:`workbench.resolve.certificate_store`)."""

from __future__ import annotations

import argparse

from workbench import workspace


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rule", help="the narrowing rule: which certificates bind to a live compilation")
    rsub = p.add_subparsers(dest="rule_command", metavar="SUBCOMMAND")
    s = rsub.add_parser("show", help="compile a program with the rule on and explain each kernel's binding")
    s.add_argument("program", help="a registered program name or FILE.py")
    s.add_argument("--device", default="cuda", choices=["cuda", "fake-cuda"], help="capture device")
    workspace.add_argument(s)
    s.set_defaults(func=_show)
    p.set_defaults(func=lambda args: (p.print_help(), 1)[1])


def _show(args) -> int:
    from workbench import progress
    from workbench.capture import capture
    from workbench.resolve import certificate_store
    from workbench.programs import resolve
    from workbench.rule import narrowing

    program = resolve(args.program)  # a bad name or file fails here, before the store is loaded
    store = certificate_store(args.workspace)  # a bar counts the records (workspace, then the shipped corpus)
    with progress.phase(f"compile {args.program} with the rule on"), narrowing(store) as decisions:
        kernels = capture(program, device=args.device)
    for b in decisions.bindings:
        print(b.explain())
    sig = {k.name: {a.name: k.signature[a.name] for a in k.size_args} for k in kernels}
    for name, types in sig.items():
        print(f"{name}: size arguments as compiled: {', '.join(f'{a}: {t}' for a, t in types.items()) or '(none)'}")
    return 0
