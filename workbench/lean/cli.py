"""``workbench lean ...``: emit instances, print goals, check the Lake project (stage: prove).

* ``workbench lean emit CERT.json|KERNEL.json|NAME [--out DIR] [--json]``: write Lean instance files into the
  workspace (``workbench.workspace``) or ``--out`` (no Lean needed; never into the checkout's ``lean/``).
* ``workbench lean goals FILE.lean [--theorem T] [--line N]``: tactic steps with the goals before and after
  each, and the file's diagnostics (needs ``lake``; without it the steps are listed and the exit code is 2).
* ``workbench lean check``: ``lake build`` plus ``#print axioms`` for every theorem (needs ``lake``).
* ``workbench lean status``: whether Lean can run here and what it last checked (exit 2 without Lean).

Instances emitted into the workspace land in ``<workspace>/lean``, a Lake project that uses the checkout's
``Narrowing`` library (``workbench.workspace.lean_project``); ``goals`` finds the project from the file.
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
                      help="CERT.json (a workbench.check certificate), KERNEL.json (a captured kernel: checked first, "
                           "observable mode), a lean_instance JSON, or a program NAME of data/kernels")
    emit.add_argument("--out", type=Path, default=None,
                      help="output folder (default: the workspace's lean/Instances; never the checkout's lean/, "
                           "which only scripts/lean-regen.sh rewrites)")
    emit.add_argument("--hand-built", action="store_true",
                      help="emit the hand-built instance NAME (or every hand-built one without NAME) instead")
    emit.add_argument("--corpus", action="store_true",
                      help="run workbench.check on every captured kernel and emit each certified one (observable mode)")
    emit.add_argument("--certificates", type=Path, default=None,
                      help="with --corpus: also write each certified kernel's certificate JSON into this folder")
    emit.add_argument("--json", action="store_true", help="print a workbench.lean_emit/1 document")
    from workbench.workspace import add_argument

    add_argument(emit)
    emit.set_defaults(func=_emit)

    goals = sub.add_parser("goals", help="print tactic steps with goals before/after, and diagnostics")
    goals.add_argument("file", type=Path, help="a .lean file inside the Lake project")
    goals.add_argument("--theorem", default=None, help="only this theorem (default: every theorem in the file)")
    goals.add_argument("--line", type=int, default=None, help="only the goals at this 1-based line (start and end)")
    goals.add_argument("--project", type=Path, default=None,
                       help="Lake project (default: the nearest folder above FILE with a lakefile: the workspace's "
                            "lean/ for emitted instances, else the checkout's lean/)")
    goals.add_argument("--timeout", type=float, default=300.0, help="seconds per request (default 300)")
    goals.add_argument("--server", default=None, help="language-server command instead of `lake serve` (testing)")
    goals.set_defaults(func=_goals)

    check = sub.add_parser("check", help="lake build, then #print axioms for every theorem (needs lake)")
    check.add_argument("--project", type=Path, default=None, help="Lake project (default: lean/)")
    check.set_defaults(func=_check)

    status = sub.add_parser("status", help="whether Lean can run here and what it last checked")
    status.set_defaults(func=_status)


def _instances(args) -> list:
    """``(label, LeanInstance | None, reason)`` for every kernel the arguments name."""
    from workbench.lean.adapter import corpus_instances, instance_from_file
    from workbench.lean.hand_built import HAND_BUILT, hand_built
    from workbench.lean.paths import REPO

    if args.corpus:
        return [(f"{e.program}/{e.kernel}", e.instance, f"{e.verdict}: {e.reason}") for e in corpus_instances()]
    if args.hand_built:
        insts = [hand_built(args.source)] if args.source else [HAND_BUILT[n]() for n in sorted(HAND_BUILT)]
        return [(f"{i.program}/{i.kernel}", i, "hand-built") for i in insts]
    if not args.source:
        raise UsageError("give CERT.json, KERNEL.json, a program NAME, --corpus, or --hand-built [NAME]")
    path = Path(args.source)
    if path.suffix == ".json" or path.is_file():
        if not path.exists():
            raise UsageError(f"{path} does not exist; give a certificate, a captured kernel or a lean_instance JSON file")
        if not _schema(path).startswith(("workbench.lean_instance", "workbench.captured_kernel")):
            # a certificate or a `check --json` output: its record is found by IR hash (workspace first)
            return _from_certificates(str(path), getattr(args, "workspace", None))
        inst = instance_from_file(path)
        return [(str(path), inst, "") if inst is not None else (str(path), None, "not certified")]
    if path.is_dir() or _captured(args.source, args):
        # a folder, a NAME, PROGRAM/KERNEL or a kernel id: the workspace first, then the shipped corpus
        return _from_certificates(args.source, getattr(args, "workspace", None))
    if (REPO / "data" / "kernels" / args.source).is_dir():
        return [(f"{e.program}/{e.kernel}", e.instance, f"{e.verdict}: {e.reason}")
                for e in corpus_instances(programs=(args.source,))]
    raise UsageError(f"{args.source!r} is neither a file nor a captured program (workspace or data/kernels); "
                     f"hand-built instances ({', '.join(sorted(HAND_BUILT))}) need --hand-built")


def _schema(path: Path) -> str:
    try:
        from workbench.jsonfile import loads

        data = loads(path.read_text())  # with the readers' limits (workbench.jsonfile)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
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
    """``(label, LeanInstance | None, reason)`` for each kernel a folder, NAME or id resolves to
    (``workbench.resolve`` finds records and certificates; uncertified kernels are listed with the reason)."""
    from workbench.errors import WorkbenchError
    from workbench.lean.adapter import from_certificate
    from workbench.resolve import certificates

    found = []
    for lc in certificates(source, workspace):
        rec = lc.record.record
        label = f"{rec.program}/{rec.name}"
        if not lc.certificate.certified:
            found.append((label, None, f"{lc.certificate.verdict}: {lc.certificate.reason}"))
            continue
        try:
            found.append((label, from_certificate(lc.certificate, str(lc.path or lc.record.path), record=rec), ""))
        except WorkbenchError as exc:
            found.append((label, None, f"certified, not emitted: {exc}"))
    if not found:
        raise InstanceError(f"{source}: no kernel found to emit; `workbench show {source}` lists what resolves")
    if len(found) == 1 and found[0][1] is None and found[0][2].startswith("certified, not emitted"):
        # one certificate that does not fit its record (stale, edited): an input error, not a verdict
        print(f"skip {found[0][0]}: {found[0][2]}")
        raise InstanceError(f"{source}: {found[0][2]}")
    return found


def _out_dir(args) -> Path:
    from workbench.lean.paths import PROJECT
    from workbench.workspace import lean_project

    out = (args.out or lean_project(args.workspace) / "Instances").resolve()
    if out == PROJECT.resolve() or PROJECT.resolve() in out.parents:
        raise UsageError(f"--out {out} is inside the checkout's lean/ project, which is shipped and read-only at run "
                         "time; write to the workspace (the default) or another folder, and regenerate the shipped "
                         "instances with scripts/lean-regen.sh")
    return out


def _emit(args) -> int:
    from workbench.contract import Verdict, document, emit
    from workbench.errors import WorkbenchError
    from workbench.lean.emit import instance_summary, write_instance

    out = _out_dir(args)
    rows = []
    for label, inst, why in _instances(args):
        if inst is None:
            rows.append({"kernel": label, "verdict": Verdict.REFUSED.value, "reason": why})
            continue
        try:
            path = write_instance(inst, out)
        except WorkbenchError as exc:
            rows.append({"kernel": label, "verdict": Verdict.REFUSED.value, "reason": f"not emitted: {exc}"})
            continue
        rows.append({"kernel": label, "verdict": Verdict.OK.value, "path": str(path), **instance_summary(inst)})
        if args.certificates is not None and args.corpus:
            _write_certificate(args.certificates, label)
    verdict = Verdict.OK if rows and all(r["verdict"] == Verdict.OK.value for r in rows) else Verdict.REFUSED
    project = None
    if args.out is None:  # the workspace's Lake project: its Instances.lean index now lists the new files
        from workbench.workspace import lean_project

        project = str(lean_project(args.workspace))
    doc = document("lean_emit", 1, verdict, out=str(out), project=project, lean_checked=False, instances=rows,
                   note="The emitter never runs Lean; run `workbench lean check` where `lake` exists.")
    if args.json:
        return emit(doc)
    for r in rows:
        if r["verdict"] == Verdict.OK.value:
            print(f"wrote {r['path']} ({r['side_conditions']} side conditions, cited by kernel_safe)")
        else:
            print(f"skip {r['kernel']}: {r['reason']}")
    print(f"{sum(r['verdict'] == 'ok' for r in rows)} of {len(rows)} emitted. "
          "Lean check: not run (the emitter never runs Lean); run `workbench lean check` where `lake` exists.")
    if project and any(r["verdict"] == Verdict.OK.value for r in rows):
        first = next(r["path"] for r in rows if r["verdict"] == Verdict.OK.value)
        print(f"Lake project {project} (uses the shipped Narrowing library): "
              f"`workbench lean goals {shlex.quote(first)}`, `workbench lean check --project {shlex.quote(project)}`")
    return 0 if verdict is Verdict.OK else 1


def _write_certificate(folder: Path, label: str) -> None:
    from workbench.lean.adapter import corpus_instances

    program, kernel = label.split("/", 1)
    for e in corpus_instances(programs=(program,)):
        if e.kernel == kernel and e.certificate is not None:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{program}__{kernel}.json").write_text(e.certificate.dumps() + "\n")


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


def _project_of(file: Path) -> Path | None:
    """The Lake project a file belongs to: the nearest folder above it with a lakefile (the workspace's
    ``lean/`` for what ``lean emit`` wrote, the checkout's ``lean/`` for the shipped files)."""
    for folder in Path(file).resolve().parents:
        if (folder / "lakefile.toml").is_file() or (folder / "lakefile.lean").is_file():
            return folder
    return None


def _goals(args) -> int:
    from workbench.lean.paths import PROJECT
    from workbench.lean.session import LeanSession
    from workbench.lean.steps import tactic_steps, theorems

    project = (args.project or _project_of(args.file) or PROJECT).resolve()
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
    if st["lake"] is None:  # docs/cli.md: exit 2 when Lean is not installed, the fix on stderr
        print(f"workbench: error: {LeanNotInstalledError('lake', 'workbench lean status')}", file=sys.stderr)
        return 2
    return 0


__all__ = ["register", "InstanceError"]
