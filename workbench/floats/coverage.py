"""The KernelBench level-1 coverage table: spec semantics and end-to-end verdicts per problem (stage: floats).

``workbench floats coverage [--level1 DIR] [--answers DIR] [--out DIR]`` reads every problem file of
KernelBench level 1 (``NN_Name.py``) and every model-style answer of the corpus (``NN_*.py`` under
``data/floats/kernelbench-answers``, matched to its problem by number) and writes ``coverage.json`` and
``coverage.md``. Per problem:

1. **Spec**: is the reference ``Model`` expressed as a spec the checkers can evaluate? ``tensorspec.capture``
   (inputs read statically, the Model exported on the meta device) gives the tensor spec: its families,
   ATen ops and output shape, or the refusal that names the op or construct. Where it is captured,
   ``tensorspec.cross_check`` compares its binary64 evaluator with the reference Model run in float64 on the
   CPU at a shrunk size (or says why that was not run). Elementwise problems are also captured as the scalar
   bit-exact spec of the floats checker (``kernelbench.capture_reference``).
2. **End to end**: each answer is checked without editing. Answers to elementwise problems go through
   ``workbench floats check REFERENCE.py ANSWER.py`` (``kbcheck.check_kernelbench``: fma on, ftz off, NaN policy
   any, spec device cuda); the others through the block level (``workbench.floats.block.check_block``,
   issue 25 items 3/4) when this tree has its implementation; otherwise the row says "spec only" and why.
   Every answer's verdict, what decided it and under which semantics are recorded; an answer that is refused
   records the refusal (the message that names the construct and its line).

Each answer file states what it is meant to be in its first comment lines (``# intent: correct`` or
``# intent: wrong: <the bug>``): read as text, never executed. The table counts are recomputed from the JSON
by ``tests/floats/test_floats_coverage.py``; ``coverage.md`` is a pure function of ``coverage.json``
(``render``), sorted by problem number, with no clocks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from workbench.paths import KERNELBENCH_LEVEL1
from workbench.errors import WorkbenchError
from workbench.floats.errors import FloatsUsageError

LEVEL1 = KERNELBENCH_LEVEL1
ANSWERS = Path(__file__).resolve().parents[2] / "data" / "floats" / "kernelbench-answers"
SCHEMA = "workbench.floats-coverage/1"
PROOFWRIGHT = "ProofWright (published): 14/100 level-1 problems end to end, all elementwise"

# Verdicts that are end-to-end results (a checker ran on the answer and decided something, or said it cannot)
VERDICTS_E2E = ("equivalent", "not-equivalent", "no-counterexample", "undecided", "unsafe",
                "output-not-fully-written")  # not e2e: "refused" (reader), "spec only", "timeout", "error"


@dataclass(frozen=True, slots=True)
class AnswerFile:
    path: Path
    number: int
    intent: str  # "correct" or "wrong: <the bug>"


def problem_files(level1: Path) -> list[tuple[int, Path]]:
    if not level1.is_dir():
        raise FloatsUsageError(f"--level1 {str(level1)!r} is not a folder; pass KernelBench's level1 folder "
                               "(e.g. /work/shared/kernelbench/level1)")
    out = []
    for p in level1.glob("*.py"):
        m = re.match(r"(\d+)_", p.name)
        if m:
            out.append((int(m.group(1)), p))
    if not out:
        raise FloatsUsageError(f"--level1 {str(level1)!r} holds no NN_Name.py problem files; pass KernelBench's "
                               "level1 folder")
    return sorted(out)


def answer_files(folder: Path) -> list[AnswerFile]:
    if not folder.is_dir():
        raise FloatsUsageError(f"--answers {str(folder)!r} is not a folder; pass the answer corpus "
                               "(data/floats/kernelbench-answers)")
    out = []
    for p in sorted(folder.glob("*.py")):
        m = re.match(r"(\d+)_", p.name)
        if not m:
            continue
        head = p.read_text().splitlines()[:5]
        intent = next((ln.split("intent:", 1)[1].strip() for ln in head if ln.startswith("# intent:")), None)
        if intent is None or not (intent == "correct" or intent.startswith("wrong: ")):
            raise FloatsUsageError(f"{p.name}:1 has no `# intent: correct` or `# intent: wrong: <the bug>` line in "
                                   "its first 5 lines; add one (the table records what each answer is meant to be)")
        out.append(AnswerFile(p, int(m.group(1)), intent))
    return out


# -- the spec column ---------------------------------------------------------------------------------------

def spec_row(path: Path) -> dict:
    from workbench.floats.tensorspec import capture, cross_check

    try:
        spec = capture(path)
    except WorkbenchError as exc:
        return {"expressed": False, "reason": str(exc)}
    row: dict = {"expressed": True, "families": [f.value for f in spec.families],
                 "ops": sorted({o.removeprefix("aten.") for o in spec.ops if o.startswith("aten.")}),
                 "inputs": [i.describe() + (f" ({', '.join(i.structure)})" if i.structure else "") for i in spec.inputs],
                 "out_shape": list(spec.out_shape)}
    try:
        xc = cross_check(path)
    except WorkbenchError as exc:
        row["cross_check"] = {"run": False, "text": f"not run: {exc}"}
    else:
        if xc is None:
            row["cross_check"] = {"run": False, "text": "not run: the shrunk instance is still over 2**22 input "
                                  "elements (model constants keep it large)"}
        else:
            shapes = " ".join("x".join(map(str, s)) or "scalar" for s in xc.shapes)
            row["cross_check"] = {"run": True, "agrees": xc.agrees, "max_error": f"{xc.max_error:.0e}",
                                  "text": f"{'agrees' if xc.agrees else 'DISAGREES'} with the Model in float64 at "
                                          f"{shapes} (max relative error {xc.max_error:.0e})"}
    if spec.elementwise:
        row["scalar_spec"] = _scalar_spec(path)
    return row


def _scalar_spec(path: Path) -> str:
    """The elementwise problem as the floats checker's bit-exact scalar spec, or why not."""
    from workbench.floats.kernelbench import capture_reference, read_problem

    try:
        spec = capture_reference(read_problem(path), "cuda")
    except WorkbenchError as exc:
        return f"no: {exc}"
    return f"yes: {', '.join(o.removeprefix('aten.') for o in spec.ops)}" + \
        (f" (opaque: {', '.join(spec.opaque)})" if spec.opaque else "")


# -- the end-to-end column ---------------------------------------------------------------------------------

def block_level_available() -> str | None:
    """None when ``check_block`` is implemented in this tree, else why not."""
    import importlib.util

    try:
        if importlib.util.find_spec("workbench.floats.block.decide") is None:
            return "the block level (workbench.floats.block, issue 25 items 3/4) has no implementation in this tree yet"
    except ImportError as exc:
        return f"the block level cannot be imported: {exc}"
    return None


def answer_row(ref: Path, ans: AnswerFile, elementwise: bool, workers: int = 2) -> dict:
    row: dict = {"file": ans.path.name, "intent": ans.intent}
    if elementwise:
        row.update(_elementwise(ref, ans.path, workers))
    else:
        row.update(_block(ref, ans.path))
    return row


def _elementwise(ref: Path, ans: Path, workers: int) -> dict:
    from workbench.floats.check import Target
    from workbench.floats.kbcheck import check_kernelbench

    args = SimpleNamespace(spec=str(ref), kernel=str(ans), spec_device="cuda", lean=None, workers=workers, nan="any")
    target = Target(fma=True, ftz=False)
    try:
        _, _, v = check_kernelbench(args, target, False)
    except WorkbenchError as exc:
        return {"level": "elementwise", "verdict": "refused", "text": str(exc), "decided_by": "the reader (exit 2)",
                "semantics": ""}
    how = ("all 2**32 inputs" if v.exhaustive else
           "identity of the element function with the spec" if v.status == "equivalent" else
           f"case split, {v.cases:,} cases" if v.cases else
           "opaque calls (" + ", ".join(v.opaque) + ")" if v.opaque else v.status)
    if v.witnesses:
        how += "; witness " + v.witnesses[0].describe()
    if not v.safety.safe or not v.safety.complete:
        how = f"safety gate: {v.safety.summary()}; semantic: {how}"
    sampled = "exhaustive" if v.exhaustive else ("identity" if v.status == "equivalent" else
                                                 "sampled" if v.cases else "none")
    return {"level": "elementwise", "verdict": v.verdict.value, "text": v.summary, "decided_by": how,
            "semantics": f"float32 bit-exact, spec device {v.spec_device}, {v.target.label}, NaN policy {v.nan}, "
                         f"{sampled}"}


BLOCK_TIMEOUT_S = 150  # per answer; a block-level check that runs longer is recorded as a timeout


def _block(ref: Path, ans: Path, timeout_s: float = BLOCK_TIMEOUT_S) -> dict:
    """The block-level check of one answer in a child process, killed after ``timeout_s`` (its result comes
    back through a pipe). The child is spawned, not forked: a fork of a process that has run torch's thread
    pools deadlocks on a lock held by a thread the child does not have (seen here: every forked check hung
    in futex_wait)."""
    import multiprocessing as mp

    why = block_level_available()
    if why is not None:
        return {"level": "block", "verdict": "spec only", "text": why, "decided_by": "", "semantics": ""}
    ctx = mp.get_context("spawn")
    recv, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_block_child, args=(ref, ans, send), daemon=True)
    child.start()
    send.close()
    try:
        if recv.poll(timeout_s):
            return recv.recv()
        return {"level": "block", "verdict": "timeout", "text": f"the block-level check gave no result within "
                f"{timeout_s:.0f} s on this machine (killed)", "decided_by": "", "semantics": ""}
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        recv.close()


def _block_child(ref: Path, ans: Path, send) -> None:
    send.send(_block_in_process(ref, ans))
    send.close()


def _block_in_process(ref: Path, ans: Path) -> dict:
    why = block_level_available()
    if why is not None:
        return {"level": "block", "verdict": "spec only", "text": why, "decided_by": "", "semantics": ""}
    from workbench.floats.block import BlockOptions, check_block

    opts = BlockOptions(spec_device="cpu", fma=True, ftz=False)
    try:
        v = check_block(ref, ans, opts)
    except WorkbenchError as exc:
        return {"level": "block", "verdict": "refused", "text": str(exc), "decided_by": "the block reader (exit 2)",
                "semantics": ""}
    except NotImplementedError as exc:
        return {"level": "block", "verdict": "spec only", "text": f"the block level is not finished: {exc}",
                "decided_by": "", "semantics": ""}
    except Exception as exc:  # a crash inside the block level is that row's result, not the table's end
        first = str(exc).splitlines()[0] if str(exc) else ""
        return {"level": "block", "verdict": "error", "text": f"the block level raised {type(exc).__name__}: "
                f"{first[:300]} (a bug there, not a verdict)", "decided_by": "", "semantics": ""}
    shapes = " ".join("x".join(map(str, s)) for s in v.reals.shapes)
    return {"level": "block", "verdict": v.verdict.value,
            "text": f"reals: {v.reals.text}; float32: {v.float32.text}; safety: {v.safety.summary()}",
            "decided_by": f"reals: {v.reals.decided_by}; float32: {v.float32.decided_by}",
            "semantics": f"{v.float32.semantics}; decided at shapes {shapes}",
            "reals": v.reals.status.value, "float32": v.float32.status.value}


# -- the table ---------------------------------------------------------------------------------------------

def build(level1: Path = LEVEL1, answers: Path = ANSWERS, only: set[int] | None = None, workers: int = 2,
          progress=None) -> dict:
    probs = problem_files(level1)
    corpus = answer_files(answers)
    if only:
        probs = [(n, p) for n, p in probs if n in only]
    by_number: dict[int, list[AnswerFile]] = {}
    for a in corpus:
        by_number.setdefault(a.number, []).append(a)
    known = {n for n, _ in problem_files(level1)}
    stray = sorted(a.path.name for a in corpus if a.number not in known)
    if stray:
        raise FloatsUsageError(f"answer {stray[0]} names problem {int(stray[0].split('_')[0])}, which is not in "
                               f"{level1}; rename it after its problem's number")
    rows = []
    for k, (n, p) in enumerate(probs):
        spec = spec_row(p)
        elementwise = spec.get("families") == ["elementwise"] and spec.get("scalar_spec", "").startswith("yes")
        rows.append({"number": n, "problem": p.stem, "spec": spec,
                     "answers": [answer_row(p, a, elementwise, workers) for a in by_number.get(n, [])]})
        if progress is not None:
            progress(k + 1, len(probs), n)
    return {"schema": SCHEMA, "level1": "KernelBench level 1 (" + str(len(probs)) + " problems)",
            "answers": str(answers.name), "problems": rows, "counts": counts(rows)}


def e2e(row: dict) -> bool:
    return any(a["verdict"] in VERDICTS_E2E for a in row["answers"])


def counts(rows: list[dict]) -> dict:
    """The table's headline numbers, a pure function of its rows (the test recomputes them)."""
    answers = [a for r in rows for a in r["answers"]]
    wrong = [a for a in answers if a["intent"] != "correct"]
    verdicts: dict[str, int] = {}
    for a in answers:
        verdicts[a["verdict"]] = verdicts.get(a["verdict"], 0) + 1
    families: dict[str, int] = {}
    for r in rows:
        for f in r["spec"].get("families", ()):
            families[f] = families.get(f, 0) + 1
    return {
        "problems": len(rows),
        "spec_expressed": sum(r["spec"]["expressed"] for r in rows),
        "spec_cross_checked": sum(r["spec"].get("cross_check", {}).get("agrees", False) for r in rows),
        "scalar_bit_exact_spec": sum(r["spec"].get("scalar_spec", "").startswith("yes") for r in rows),
        "with_answers": sum(bool(r["answers"]) for r in rows),
        "end_to_end": sum(e2e(r) for r in rows),
        "end_to_end_elementwise": sum(e2e(r) for r in rows if r["answers"] and r["answers"][0]["level"] == "elementwise"),
        "end_to_end_block": sum(e2e(r) for r in rows if r["answers"] and r["answers"][0]["level"] == "block"),
        "block_reals_equivalent": sum(a.get("reals") == "equivalent over the reals" for a in answers),
        "block_float32_equivalent": sum(a.get("float32") == "equivalent over float32" for a in answers),
        "spec_only": sum(bool(r["answers"]) and not e2e(r) for r in rows),
        "answers": len(answers),
        "answers_wrong": len(wrong),
        "wrong_caught": sum(a["verdict"] in ("not-equivalent", "unsafe", "output-not-fully-written") for a in wrong),
        "wrong_caught_over_reals": sum(a.get("reals") == "not equivalent over the reals" for a in wrong),
        "wrong_called_equivalent": sum(a["verdict"] == "equivalent" for a in wrong),
        "verdicts": dict(sorted(verdicts.items())),
        "families": dict(sorted(families.items())),
    }


def _cell(text: str, limit: int = 160) -> str:
    t = " ".join(str(text).split()).replace("|", "\\|")
    return t if len(t) <= limit else t[:limit - 3] + "..."


def render(table: dict) -> str:
    """coverage.md from coverage.json: deterministic (rows by number, no clocks)."""
    c = table["counts"]
    out = ["# KernelBench level 1: spec coverage and end-to-end verdicts", "",
           "Generated by `workbench floats coverage --out data/floats` from `coverage.json` "
           "(`workbench/floats/coverage.py`); do not edit by hand.", "",
           f"- problems: {c['problems']}; spec expressed: **{c['spec_expressed']}**; spec evaluator agreeing with the "
           f"reference Model (float64, CPU, shrunk sizes): {c['spec_cross_checked']}; elementwise problems with the "
           f"bit-exact scalar spec: {c['scalar_bit_exact_spec']}",
           f"- problems with model-style answers: {c['with_answers']}; with an end-to-end verdict: **{c['end_to_end']}** "
           f"({c['end_to_end_elementwise']} elementwise, {c['end_to_end_block']} through the block level); spec only "
           f"(answers written, no checker gave a verdict): {c['spec_only']}",
           f"- block-level answers: {c['block_reals_equivalent']} equivalent over the reals, "
           f"{c['block_float32_equivalent']} equivalent over float32 (the evaluation order must be ATen's)",
           f"- answers: {c['answers']} ({c['answers_wrong']} deliberately wrong: {c['wrong_caught']} caught as "
           f"not-equivalent/unsafe/not fully written ({c['wrong_caught_over_reals']} of them not equivalent over the "
           f"reals), {c['wrong_called_equivalent']} called equivalent); verdicts: "
           + ", ".join(f"{k} {v}" for k, v in c["verdicts"].items()),
           f"- spec families: " + ", ".join(f"{k} {v}" for k, v in c["families"].items()),
           f"- for comparison: {PROOFWRIGHT}", "",
           "| # | problem | spec | families | cross-check | answers: verdict (semantics) |", "|---|---|---|---|---|---|"]
    for r in table["problems"]:
        s = r["spec"]
        spec = "yes" if s["expressed"] else "no: " + _cell(s["reason"], 120)
        if s.get("scalar_spec"):
            spec += "; scalar " + ("yes" if s["scalar_spec"].startswith("yes") else _cell(s["scalar_spec"], 100))
        fam = ", ".join(s.get("families", ()))
        xc = s.get("cross_check", {})
        xct = ("agrees " + xc["max_error"]) if xc.get("run") and xc.get("agrees") else _cell(xc.get("text", ""), 60)
        ans = "<br>".join(f"`{a['file']}` ({'correct' if a['intent'] == 'correct' else 'wrong'}): **{a['verdict']}**"
                          + (f" [{a['reals'].removesuffix(' over the reals')} over the reals, "
                             f"{a['float32'].removesuffix(' over float32')} over float32]" if "reals" in a else "")
                          + (f" ({_cell(a['semantics'], 90)})" if a["semantics"] else f" ({_cell(a['text'], 90)})")
                          for a in r["answers"]) or "-"
        out.append(f"| {r['number']} | {r['problem']} | {spec} | {fam} | {xct} | {ans} |")
    out += ["", "## Answers: what decided each verdict", ""]
    for r in table["problems"]:
        for a in r["answers"]:
            out.append(f"- `{a['file']}` (intent: {_cell(a['intent'], 200)}): **{a['verdict']}**; "
                       f"{_cell(a['decided_by'] or a['text'], 400)}")
    return "\n".join(out) + "\n"


def document(table: dict) -> str:
    """coverage.json's text (also what ``coverage --json`` prints): sorted keys, no clocks."""
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def write(table: dict, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    jp, mp = out / "coverage.json", out / "coverage.md"
    for path, text in ((jp, document(table)), (mp, render(table))):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return jp, mp


def run(args) -> int:
    import sys

    from workbench import workspace

    only = None
    if args.only:
        try:
            only = {int(x) for x in args.only.split(",") if x}
        except ValueError:
            raise FloatsUsageError(f"--only {args.only!r} is not a comma-separated list of problem numbers; e.g. "
                                   "--only 19,23,47") from None
    show = not args.no_progress

    def progress(done: int, total: int, n: int) -> None:
        if show:
            print(f"coverage: {done}/{total} problems (last: {n})", file=sys.stderr, flush=True)

    table = build(Path(args.level1), Path(args.answers), only, args.workers, progress)
    jp, mp = write(table, Path(args.out) if args.out else workspace.subdir("floats", args.workspace))
    c = table["counts"]
    line = (f"{c['problems']} problems: spec expressed {c['spec_expressed']}, end to end {c['end_to_end']} "
            f"({c['answers']} answers, {c['answers_wrong']} wrong: {c['wrong_caught']} caught, "
            f"{c['wrong_called_equivalent']} called equivalent); wrote {jp} and {mp}")
    if args.json:  # the document written to coverage.json, with the contract's verdict (an artefact: "ok"),
        # on stdout; the summary line goes to stderr
        from workbench import contract

        print(line, file=sys.stderr)
        return contract.emit(contract.with_verdict(json.loads(document(table)), "ok"))
    else:
        print(line)
    return 0


def register(sub) -> None:
    from workbench import workspace

    p = sub.add_parser("coverage", help="the KernelBench level-1 coverage table (spec semantics, end-to-end verdicts)")
    p.add_argument("--level1", default=str(LEVEL1), help="KernelBench's level1 folder (default %(default)s)")
    p.add_argument("--answers", default=str(ANSWERS), help="the answer corpus (default data/floats/kernelbench-answers)")
    p.add_argument("--out", default=None, help="where coverage.json and coverage.md go (default: the workspace's "
                   "floats/; the shipped table is regenerated with --out data/floats)")
    p.add_argument("--only", default="", help="comma-separated problem numbers (default: all)")
    p.add_argument("--workers", type=int, default=2, help="processes for the 2**32 sweeps (default 2)")
    p.add_argument("--no-progress", action="store_true", help="no per-problem progress lines on stderr")
    p.add_argument("--json", action="store_true", help="print the table as JSON on stdout: the document "
                   "written to coverage.json (workbench.floats-coverage/1) with the verdict ok")
    workspace.add_argument(p)
    p.set_defaults(func=run)


__all__ = ["SCHEMA", "build", "counts", "document", "register", "render", "run", "write"]
