"""``workbench lean ...``: emit instances, print goals, check the Lake project (stage: prove).

* ``workbench lean emit KERNEL.json|NAME [--out DIR]``: write a Lean instance file (no Lean needed).
* ``workbench lean goals FILE.lean [--theorem T] [--line N]``: tactic steps with the goals before and after
  each, and the file's diagnostics (needs ``lake``; without it the steps are listed and the exit code is 2).
* ``workbench lean check``: ``lake build`` plus ``#print axioms`` for every theorem (needs ``lake``).
* ``workbench lean status``: whether Lean can run here and what it last checked.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from workbench.errors import UsageError
from workbench.lean.errors import InstanceError, LeanNotInstalledError


def register(subparsers) -> None:
    lean = subparsers.add_parser("lean", help="Lean: emit instances, step through goals, check proofs")
    sub = lean.add_subparsers(dest="lean_command", metavar="LEAN_COMMAND")
    lean.set_defaults(func=lambda args: (lean.print_help(), 1)[1])

    emit = sub.add_parser("emit", help="write the Lean instance file of a certified kernel")
    emit.add_argument("source", nargs="?",
                      help="KERNEL.json (a certificate or lean_instance file) or a program NAME of data/kernels "
                           "(checked by workbench.check, each certified kernel emitted)")
    emit.add_argument("--out", type=Path, default=None, help="output folder (default: lean/Instances, whose index is refreshed)")
    emit.add_argument("--hand-built", action="store_true",
                      help="emit the hand-built instance NAME (or every hand-built one without NAME) instead")
    emit.add_argument("--corpus", action="store_true",
                      help="run workbench.check on every captured kernel and emit each certified one (observable mode)")
    emit.add_argument("--certificates", type=Path, default=None,
                      help="with --corpus: also write each certified kernel's certificate JSON into this folder")
    from workbench import workspace

    workspace.add_argument(emit)
    emit.set_defaults(func=_emit)

    goals = sub.add_parser("goals", help="print tactic steps with goals before/after, and diagnostics")
    goals.add_argument("file", type=Path, help="a .lean file inside the Lake project")
    goals.add_argument("--theorem", default=None, help="only this theorem (default: every theorem in the file)")
    goals.add_argument("--line", type=int, default=None, help="only the goals at this 1-based line (start and end)")
    goals.add_argument("--project", type=Path, default=None, help="Lake project (default: lean/)")
    goals.add_argument("--timeout", type=float, default=300.0, help="seconds per request (default 300)")
    goals.add_argument("--server", default=None, help="language-server command instead of `lake serve` (testing)")
    goals.set_defaults(func=_goals)

    check = sub.add_parser("check", help="lake build, then #print axioms for every theorem (needs lake)")
    check.add_argument("--project", type=Path, default=None, help="Lake project (default: lean/)")
    check.set_defaults(func=_check)

    status = sub.add_parser("status", help="whether Lean can run here and what it last checked")
    status.set_defaults(func=_status)


def _instances(args) -> list:
    from workbench.lean.adapter import instance_from_file
    from workbench.lean.hand_built import HAND_BUILT, hand_built

    if args.hand_built:
        return [hand_built(args.source)] if args.source else [HAND_BUILT[n]() for n in sorted(HAND_BUILT)]
    if not args.source:
        raise UsageError("give KERNEL.json, a program NAME, --corpus, or --hand-built [NAME]")
    path = Path(args.source)
    if path.suffix == ".json" and path.is_file() and _schema(path).startswith("workbench.lean_instance"):
        return [instance_from_file(path)]
    if path.exists() or path.suffix in (".json", ".py") or _captured(args.source, args):
        return _from_certificates(args.source, getattr(args, "workspace", None))
    raise UsageError(f"{args.source!r} is neither a file nor a captured program under data/kernels; "
                     f"hand-built instances ({', '.join(sorted(HAND_BUILT))}) need --hand-built")


def _schema(path: Path) -> str:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return ""
    return str(data.get("schema", "")) if isinstance(data, dict) else ""


def _captured(name: str, args) -> bool:
    """A captured NAME, PROGRAM/KERNEL or kernel id in the workspace or the shipped corpus."""
    from workbench.errors import WorkbenchError
    from workbench.resolve import records

    try:
        return bool(records(name, getattr(args, "workspace", None)))
    except WorkbenchError:
        return False


def _from_certificates(source: str, workspace) -> list:
    """CERT.json, a folder of certificates, KERNEL.json, a folder of records or a captured NAME (workspace
    first, then the shipped corpus): each certified kernel's instance (workbench.resolve finds the records)."""
    from workbench.errors import WorkbenchError
    from workbench.lean.adapter import from_certificate
    from workbench.resolve import certificates

    found = []
    for lc in certificates(source, workspace):
        rec = lc.record.record
        where = str(lc.path or lc.record.path)
        if not lc.certificate.certified:
            print(f"skip {rec.program}/{rec.name}: {lc.certificate.verdict}: {lc.certificate.reason}")
            continue
        try:
            found.append(from_certificate(lc.certificate, where, record=rec))
        except WorkbenchError as exc:
            print(f"skip {rec.program}/{rec.name}: certified, not emitted: {exc}")
    if not found:
        raise InstanceError(f"{source}: no certified kernel to emit (see the lines above); "
                            "`workbench check` explains each verdict")
    return found


def _emit(args) -> int:
    from workbench.lean.emit import write_instance
    from workbench.lean.paths import INSTANCES

    out = args.out or INSTANCES
    if args.corpus:
        return _emit_corpus(out, args.certificates)
    for inst in _instances(args):
        path = write_instance(inst, out)
        print(f"wrote {path} ({len(inst.side_conditions)} side conditions, source: {inst.source})")
    print("Lean check: not run (the emitter never runs Lean); run `workbench lean check` where `lake` exists.")
    return 0


def _emit_corpus(out: Path, certificates: Path | None) -> int:
    from workbench.lean.adapter import corpus_instances
    from workbench.lean.emit import write_instance

    entries = corpus_instances()
    emitted = 0
    for e in entries:
        if e.instance is None:
            print(f"skip {e.program}/{e.kernel}: {e.verdict}: {e.reason}")
            continue
        path = write_instance(e.instance, out)
        emitted += 1
        print(f"wrote {path} ({len(e.instance.side_conditions)} side conditions)")
        if certificates is not None:
            certificates.mkdir(parents=True, exist_ok=True)
            (certificates / f"{e.program}__{e.kernel}.json").write_text(e.certificate.dumps() + "\n")
    print(f"{emitted} instances from {len(entries)} captured kernels. "
          "Lean check: not run (the emitter never runs Lean); run `workbench lean check` where `lake` exists.")
    return 0


def _print_goal_state(label: str, state) -> None:
    if state.status == "no_goal":
        print(f"    {label}: (no proof state here)")
    elif state.status == "complete":
        print(f"    {label}: no goals")
    else:
        for i, g in enumerate(state.goals):
            print(f"    {label} [{i + 1}/{len(state.goals)}]:")
            for h in g.hypotheses:
                print(f"      {h}")
            print(f"      ⊢ {g.target}")


def _goals(args) -> int:
    from workbench.lean.paths import PROJECT
    from workbench.lean.session import LeanSession
    from workbench.lean.steps import tactic_steps, theorems

    project = (args.project or PROJECT).resolve()
    command = shlex.split(args.server) if args.server else None
    session = LeanSession(project, server_command=command, timeout=args.timeout)
    rel = session.relpath(args.file)
    text = (project / rel).read_text(encoding="utf-8")
    names = [args.theorem] if args.theorem else list(theorems(text))
    if args.theorem and args.theorem not in theorems(text):
        raise UsageError(f"no theorem {args.theorem!r} in {rel}; theorems there: {list(theorems(text))}")
    try:
        session.start()
    except LeanNotInstalledError as exc:
        print(f"{rel}: Lean goals unavailable; tactic steps read from the text:")
        for name in names:
            print(f"theorem {name}")
            for s in tactic_steps(text, name):
                print(f"  step {s.index + 1} (line {s.line + 1}): {s.text.splitlines()[0]}")
        print(f"workbench: error: {exc}", file=sys.stderr)
        return 2
    with session:
        if args.line is not None:
            lines = text.splitlines()
            if not 1 <= args.line <= len(lines):
                raise UsageError(f"--line {args.line} is outside {rel} (1..{len(lines)})")
            line = lines[args.line - 1]
            start = len(line) - len(line.lstrip())
            print(f"{rel}:{args.line}: {line.strip()}")
            _print_goal_state("before", session.goal(rel, args.line - 1, start))
            _print_goal_state("after", session.goal(rel, args.line - 1, len(line.rstrip())))
        else:
            for name in names:
                print(f"theorem {name}")
                for sg in session.step_goals(rel, name):
                    print(f"  step {sg.step.index + 1} (line {sg.step.line + 1}): {sg.step.text.splitlines()[0]}")
                    _print_goal_state("before", sg.before)
                    _print_goal_state("after", sg.after)
        diags = session.diagnostics(rel)
        print(f"diagnostics ({len(diags)}):")
        for d in diags:
            print(f"  {rel}:{d.line + 1}:{d.col + 1}: {d.kind}: {d.message}")
        return 1 if any(d.severity == 1 for d in diags) else 0


def _check(args) -> int:
    from workbench.lean.check import check_project
    from workbench.lean.paths import PROJECT

    report = check_project((args.project or PROJECT).resolve())
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def _status(args) -> int:
    from workbench.lean.check import lean_status

    st = lean_status()
    print(st["summary"])
    if st["checked"]:
        print(json.dumps(st["checked"], indent=1, sort_keys=True))
    return 0


__all__ = ["register", "InstanceError"]
