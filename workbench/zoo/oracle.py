"""The independent oracle over the zoo: every kernel the zoo's verdicts certify, run wide and narrowed.

Stage: zoo (drives :mod:`workbench.oracle`; checks nothing itself). For each model of a zoo run — inference
(``DIR/models``, ``DIR/records``) or training step (``DIR/train/...``) — :func:`build_table` turns the model's
result file into a ``workbench.check_results/1`` table, the oracle's input format (``workbench oracle --table``),
from the **verdicts the zoo recorded** (``zoo run`` / ``zoo recheck``): no checker runs here, so the table says
what the checker said when the zoo was last checked, and a checker change reaches this command only through
``zoo recheck``. The oracle then runs those kernels from their kept records (:func:`run_model`), in its own
interpreter workers; this module imports neither ``workbench.check`` nor ``workbench.kir`` (a test holds it to
that), so the oracle stays a second opinion.

What each mode narrows: a zoo result keeps the verdicts, not the checker's ``narrowable_size_args``; in the
strict and observable modes the checker narrows every size argument of the kernel (``check/api.py``,
``_narrowed``), and it certifies only kernels whose size arguments are all declared ``i64``. The table lists
the record's size arguments, and a certified kernel with a size argument of another type is an input error
(the shipped data would then contradict itself).

A certified kernel is *not run*, with its reason, when:

* ``nothing-narrowed`` — it has no size argument, so the narrowed text *is* the wide text (``--unnarrowed``
  runs these too: the oracle then compares a kernel with itself);
* ``no-record`` — its kept record (``records/<model>/<name>.json``, ``<name>__backward.json`` for a backward
  kernel) is missing.

Kernels the zoo did not certify (refused, out of class, errors) are counted, never run. Per-model results go to
``OUT/oracle/<step>/<model>.json`` the moment a model finishes (with the table it ran,
``<model>.table.json``); ``--resume`` keeps a finished model whose table is unchanged. The summary
(:func:`summary`, ``OUT/oracle.json`` + ``oracle.md``) is built over every per-model result there: no clocks
in it (per-model seconds stay in the per-model files).

Limits: the training steps without a GPU are the Triton CPU backend's kernels; the oracle runs their text
under the interpreter with its own (Inductor CUDA heuristics') block sizes and grids, not the CPU backend's
launch, so what it confirms is the narrowing of the text at those launches (docs/oracle.md, "Where it looks").
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from workbench.contract import Verdict, document, overall
from workbench.errors import InputError, UsageError
from workbench.jsonfile import read_json
from workbench.zoo.runner import MODES, KernelOutcome, ModelResult, load_results, records_path, training_dir

MODEL_SCHEMA = "workbench.zoo_oracle_model/1"
TABLE_SCHEMA = "workbench.check_results/1"
ORACLE_DIR = "oracle"
TABLE_SOURCE = ("the verdicts recorded in the zoo's model results (models/<model>.json, written by `zoo run` / "
                "`zoo recheck`); no checker ran to build it")


class Step(StrEnum):
    INFERENCE = "inference"
    TRAINING = "training"

    def results_dir(self, zoo: Path) -> Path:
        return training_dir(zoo) if self is Step.TRAINING else zoo


class NotRun(StrEnum):
    """Why a certified kernel did not reach the oracle."""

    NOTHING_NARROWED = "nothing-narrowed"  # no size argument: the narrowed text is the wide text
    NO_RECORD = "no-record"  # no kept record of this kernel


@dataclass(frozen=True, slots=True)
class Skipped:
    kernel: str
    graph: int
    phase: str
    why: NotRun
    detail: str


@dataclass(frozen=True, slots=True)
class ModelTable:
    """One model's checker table (``workbench.check_results/1``) and what it leaves out."""

    model: str
    step: Step
    doc: dict[str, Any]
    skipped: tuple[Skipped, ...]
    uncertified: int  # kernels the zoo certified in neither mode (never run)
    kernels: int  # every kernel of the model's result
    unnarrowed: bool  # certified kernels without a size argument are in the table too
    outcomes: dict[str, KernelOutcome]  # by record stem: the outcome each table row was built from

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.doc, sort_keys=True).encode()).hexdigest()


def record_stem(name: str, phase: str) -> str:
    """The file a kept record is under (``workbench.capture.record.file_stem``, mirrored so that this driver
    imports nothing of capture; a test holds the two equal): a backward kernel's is ``<name>__backward``,
    since Inductor numbers each graph's kernels from 0 and a backward kernel may share a forward one's name."""
    return name if phase == "forward" else f"{name}__{phase}"


def _certified(k: KernelOutcome) -> tuple[str, ...]:
    return tuple(m for m in MODES if getattr(k, m) is Verdict.CERTIFIED)


def build_table(zoo: Path, step: Step, result: ModelResult, unnarrowed: bool = False) -> ModelTable:
    """The checker table of one model, from the zoo's recorded verdicts and the model's kept records."""
    records = records_path(step.results_dir(zoo), result.name)
    rows, skipped, outcomes, uncertified = [], [], {}, 0
    for k in result.kernels:
        modes = _certified(k)
        if not modes:
            uncertified += 1
            continue
        stem = record_stem(k.name, k.phase)
        path = records / f"{stem}.json"
        if not path.is_file():
            skipped.append(Skipped(k.name, k.graph, k.phase, NotRun.NO_RECORD, f"{path} does not exist"))
            continue
        fix = f"re-run `workbench zoo run --out {zoo}` for {result.name}"
        rec = read_json(path, InputError, "kernel record", fix)
        got = (rec.get("program"), rec.get("name"), rec.get("graph"), rec.get("phase") or "forward") \
            if isinstance(rec, dict) else None
        if got != (result.name, k.name, k.graph, k.phase):
            raise InputError(f"{path}: names (program, kernel, graph, phase) {got}; the model's result expects "
                             f"{(result.name, k.name, k.graph, k.phase)}; {fix}")
        args = rec.get("size_args")
        if not isinstance(args, list) or not all(isinstance(a, dict) and "name" in a for a in args):
            raise InputError(f"{path}: 'size_args' is not a list of {{name, expr, type}} objects; {fix}")
        wrong = [f"{a['name']}: {a.get('type')!r}" for a in args if a.get("type") != "i64"]
        if wrong:
            raise InputError(f"{path}: {result.name}/{k.name} is certified ({', '.join(modes)}) but declares size "
                             f"arguments {', '.join(wrong)} (the checker certifies i64 ones only); the result and "
                             f"the record disagree: `workbench zoo recheck --out {zoo} --models {result.name}`")
        narrowed = sorted(str(a["name"]) for a in args)
        if not narrowed and not unnarrowed:
            skipped.append(Skipped(k.name, k.graph, k.phase, NotRun.NOTHING_NARROWED,
                                   "no size argument: the narrowed text is the wide text"))
            continue
        row = {"program": result.name, "kernel": stem}  # the oracle reads DIR/<program>/<kernel>.json
        for m in MODES:
            v = getattr(k, m)
            row[m] = {"mode": m, "verdict": v.value, "narrowable_size_args": narrowed if v is Verdict.CERTIFIED else []}
        rows.append(row)
        outcomes[stem] = k
    doc = {"schema": TABLE_SCHEMA, "source": TABLE_SOURCE, "step": step.value, "model": result.name,
           "kernels": sorted(rows, key=lambda r: r["kernel"]), "summary": {"kernels": len(rows)}}
    return ModelTable(result.name, step, doc, tuple(skipped), uncertified, len(result.kernels), unnarrowed, outcomes)


def out_dir(write: Path, step: Step) -> Path:
    return write / ORACLE_DIR / step.value


def _atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes the file private; results are meant to be shared
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _kernel_row(r, k: KernelOutcome) -> dict[str, Any]:
    """One oracle result, without its per-shape detail (the counts summed over shapes)."""
    from workbench.oracle.report import _finding

    s = r.shapes
    masked = sum(x.masked_differences for x in s)
    return {
        "kernel": r.kernel, "graph": k.graph, "phase": k.phase, "kernel_class": k.kernel_class,
        "checker_modes": list(r.modes), "narrowed": list(r.narrowed), "verdict": r.verdict.value,
        "reason": r.reason, "shapes": len(s), "programs": sum(x.programs for x in s), "active_lanes": r.lanes,
        "accesses": sum(x.accesses for x in s), "disagreements": r.disagreements,
        "tail_differences": sum(x.inactive_differences for x in s) - masked, "masked_differences": masked,
        "steps_run": sum(x.steps_run for x in s), "full_loop_shapes": sum(x.loop == "full" for x in s),
        "sampled_loop_shapes": sum(x.loop == "sampled" for x in s), "asserts": sum(x.asserts for x in s),
        "outside_premise": sum(x.outside_premise for x in s), "skipped_shapes": len(r.skipped),
        "first_disagreements": [_finding(f) for f in r.findings[:4]],
    }


LANE_KEYS = ("shapes", "programs", "active_lanes", "accesses", "disagreements", "tail_differences",
             "masked_differences", "steps_run", "full_loop_shapes", "sampled_loop_shapes", "asserts",
             "outside_premise", "skipped_shapes")


def _counts(table: ModelTable, rows: list[dict[str, Any]]) -> dict[str, int]:
    verdicts = Counter(r["verdict"] for r in rows)
    why = Counter(s.why for s in table.skipped)
    c = {"kernels": table.kernels, "certified": table.kernels - table.uncertified,
         "not_certified": table.uncertified, "run": len(rows), "agreeing": verdicts[Verdict.OK.value],
         "disagreeing": verdicts[Verdict.NOT_EQUIVALENT.value],
         "oracle_out_of_class": verdicts[Verdict.OUT_OF_CLASS.value],
         "oracle_undecided": verdicts[Verdict.UNDECIDED.value], "oracle_error": verdicts[Verdict.ERROR.value],
         "not_run_nothing_narrowed": why[NotRun.NOTHING_NARROWED], "not_run_no_record": why[NotRun.NO_RECORD]}
    for key in LANE_KEYS:
        c[key] = sum(r[key] for r in rows)
    return c


def _not_run(table: ModelTable) -> list[dict[str, Any]]:
    return [{"kernel": s.kernel, "graph": s.graph, "phase": s.phase, "why": s.why.value, "detail": s.detail}
            for s in table.skipped]


def refresh(doc: dict[str, Any], table: ModelTable) -> dict[str, Any]:
    """A finished result whose table (the kernels run, their modes and arguments) is ``table``'s, with what the
    table leaves out taken from ``table``: a recheck that certifies or refuses kernels without a size argument
    changes no kernel the oracle runs, only the counts of kernels certified and not run."""
    return dict(doc, counts=_counts(table, doc["kernels"]), not_run=_not_run(table))


def run_model(zoo: Path, write: Path, table: ModelTable, seed: int = 0, jobs: int = 1,
              progress: bool = False) -> dict[str, Any]:
    """Run the oracle over one model's table and write ``OUT/oracle/<step>/<model>.json`` (atomically)."""
    from workbench.oracle.corpus import targets
    from workbench.oracle.run import check

    where = out_dir(write, table.step)
    table_path = where / f"{table.model}.table.json"
    _atomic(table_path, json.dumps(table.doc, indent=1, sort_keys=True) + "\n")
    t0 = time.monotonic()
    chosen = targets(table_path, table.step.results_dir(zoo) / "records")  # DIR/<program>/<kernel>.json
    results = check(chosen, seed=seed, jobs=jobs, progress=progress) if chosen else []
    # results come back in the targets' order; a target's record path names its row (forward and backward
    # kernels may share a name)
    rows = [_kernel_row(r, table.outcomes[Path(t.record.path).stem]) for t, r in zip(chosen, results, strict=True)]
    doc = {
        "schema": MODEL_SCHEMA, "model": table.model, "step": table.step.value, "table_sha256": table.sha256,
        "seed": seed, "unnarrowed": table.unnarrowed,
        "verdict": overall(r["verdict"] for r in rows).value if rows else Verdict.OK.value,
        "counts": _counts(table, rows), "kernels": rows, "seconds": round(time.monotonic() - t0, 1),
        "not_run": _not_run(table),
    }
    _atomic(where / f"{table.model}.json", json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return doc


def load_model(write: Path, step: Step, model: str) -> dict[str, Any] | None:
    path = out_dir(write, step) / f"{model}.json"
    if not path.is_file():
        return None
    doc = read_json(path, InputError, "zoo oracle result", "delete it and rerun `workbench zoo oracle`")
    if not isinstance(doc, dict) or doc.get("schema") != MODEL_SCHEMA:
        raise InputError(f"{path}: not a {MODEL_SCHEMA} document; delete it and rerun `workbench zoo oracle`")
    return doc


def results_of(zoo: Path, step: Step) -> dict[str, ModelResult]:
    d = step.results_dir(zoo)
    return load_results(d) if (d / "models").is_dir() else {}


def run(zoo: Path, write: Path, step: Step, models: Iterable[str] | None = None, seed: int = 0, jobs: int = 1,
        resume: bool = False, unnarrowed: bool = False,
        on_done: Callable[[str, dict[str, Any], bool], None] | None = None) -> dict[str, dict[str, Any]]:
    """Every chosen model of ``step``: its table, then the oracle (skipped with ``resume`` when a finished
    result ran the same table with the same seed). ``on_done(model, result, reused)`` after each model."""
    got = results_of(zoo, step)
    if not got:
        raise UsageError(f"{step.results_dir(zoo)}: no zoo results (models/*.json); run `workbench zoo run"
                         f"{' --backward' if step is Step.TRAINING else ''} --out {zoo}` first")
    names = sorted(got) if models is None else list(models)
    unknown = [n for n in names if n not in got]
    if unknown:
        raise UsageError(f"--models {','.join(unknown)}: no {step.value} result at {step.results_dir(zoo)} "
                         f"(it has {', '.join(sorted(got))})")
    done: dict[str, dict[str, Any]] = {}
    for name in names:
        result = got[name]
        if result.error:
            doc = {"schema": MODEL_SCHEMA, "model": name, "step": step.value, "capture_error": result.error[:300],
                   "verdict": Verdict.OK.value, "kernels": [], "not_run": [], "counts": {}}
            _atomic(out_dir(write, step) / f"{name}.json", json.dumps(doc, indent=1, sort_keys=True) + "\n")
            done[name] = doc
            if on_done:
                on_done(name, doc, False)
            continue
        table = build_table(zoo, step, result, unnarrowed)
        old = load_model(write, step, name) if resume else None
        reused = (old is not None and old.get("table_sha256") == table.sha256 and old.get("seed") == seed
                  and bool(old.get("unnarrowed")) == unnarrowed)
        if reused:
            doc = refresh(old, table)
            if doc != old:
                _atomic(out_dir(write, step) / f"{name}.json", json.dumps(doc, indent=1, sort_keys=True) + "\n")
        else:
            doc = run_model(zoo, write, table, seed, jobs)
        done[name] = doc
        if on_done:
            on_done(name, doc, reused)
    return done


def _sum(docs: Iterable[dict[str, Any]]) -> dict[str, int]:
    total: Counter = Counter()
    for d in docs:
        total.update(d.get("counts") or {})
    return dict(total)


def _breakdown(docs: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """Kernels run and agreeing by phase (forward / backward) and by kernel class; not run by phase."""
    phase: dict[str, Counter] = {}
    klass: dict[str, Counter] = {}
    for d in docs:
        for k in d["kernels"]:
            for key, table in ((k["phase"], phase), (k["kernel_class"] or "unknown", klass)):
                table.setdefault(key, Counter()).update(run=1, agreeing=int(k["verdict"] == Verdict.OK.value),
                                                        disagreeing=int(k["verdict"] == Verdict.NOT_EQUIVALENT.value))
        for n in d["not_run"]:
            phase.setdefault(n["phase"], Counter()).update({f"not_run_{n['why'].replace('-', '_')}": 1})
    return {"phase": {p: dict(c) for p, c in sorted(phase.items())},
            "kernel_class": {c: dict(v) for c, v in sorted(klass.items())}}


def summary(zoo: Path, write: Path) -> dict[str, Any]:
    """``workbench.zoo_oracle/1`` over every per-model result under ``write``, inference and training apart.
    A model whose result ran another table than the zoo's verdicts give now is ``stale`` (not counted); the
    counts of kernels certified and not run come from the zoo's verdicts now (:func:`refresh`)."""
    parts: dict[str, Any] = {}
    verdicts = []
    for step in Step:
        got = results_of(zoo, step)
        models, fresh = {}, []
        for name in sorted(got):
            doc = load_model(write, step, name)
            if doc is None:
                models[name] = {"status": "not run"}
                continue
            if doc.get("capture_error"):
                models[name] = {"status": "capture failed", "capture_error": doc["capture_error"]}
                continue
            table = build_table(zoo, step, got[name], bool(doc.get("unnarrowed")))
            if table.sha256 != doc.get("table_sha256"):
                models[name] = {"status": "stale", "why": "the zoo's verdicts changed since the oracle ran"}
                continue
            doc = refresh(doc, table)
            fresh.append(doc)
            verdicts.append(doc["verdict"])
            models[name] = {"status": "run", "verdict": doc["verdict"], "counts": doc["counts"],
                            "not_agreeing": [{"kernel": k["kernel"], "phase": k["phase"], "verdict": k["verdict"],
                                              "reason": k["reason"][:400]}
                                             for k in doc["kernels"] if k["verdict"] != Verdict.OK.value],
                            "not_run": [n for n in doc["not_run"] if n["why"] == NotRun.NO_RECORD]}
        parts[step.value] = {"models": models, "totals": dict(_sum(fresh), models_run=len(fresh),
                                                              models=len(got)), "by": _breakdown(fresh)}
    seeds = sorted({load_model(write, s, n)["seed"] for s in Step for n, m in parts[s.value]["models"].items()
                    if m["status"] == "run"})
    return document("zoo_oracle", 1, overall(verdicts) if verdicts else Verdict.OK, table_source=TABLE_SOURCE,
                    seeds=seeds, **parts)


def _line(label: str, c: dict[str, int]) -> str:
    return (f"| {label} | {c.get('kernels', 0)} | {c.get('certified', 0)} | {c.get('run', 0)} | "
            f"{c.get('agreeing', 0)} | **{c.get('disagreeing', 0)}** | {c.get('oracle_out_of_class', 0)} / "
            f"{c.get('oracle_undecided', 0)} / {c.get('oracle_error', 0)} | {c.get('not_run_nothing_narrowed', 0)} | "
            f"{c.get('not_run_no_record', 0)} | {c.get('shapes', 0)} | {c.get('programs', 0)} | "
            f"{c.get('active_lanes', 0)} | {c.get('accesses', 0)} | {c.get('steps_run', 0)} |")


def markdown(doc: dict[str, Any]) -> str:
    lines = [
        "# The independent oracle over the zoo",
        "",
        "Generated by `workbench zoo oracle [--training] --out data/zoo`; do not edit. For every kernel the zoo's "
        "recorded verdicts certify (strict or observable), the oracle (docs/oracle.md: Triton's interpreter, no "
        "code shared with the checker) runs the record's text wide and with its size arguments narrowed to int32, "
        "at shapes that satisfy the record's guards, and compares every active lane's address, mask and stored "
        "bits. The checker table it runs is built from the zoo's results, not rechecked: "
        f"{doc['table_source']}.",
        "",
        "Columns: *run* = certified kernels the oracle ran; *ooc / undec / err* = the oracle's own out-of-class, "
        "undecided and error verdicts (not a disagreement, not an agreement); *nothing narrowed* = certified "
        "kernels without a size argument (the narrowed text is the wide text; not run); *no record* = certified "
        "kernels whose record is not kept (not run); *lanes* = active lanes compared; *accesses* = lane-accesses "
        "compared; *steps* = reduction loop steps run.",
        "",
        f"Verdict: **{doc['verdict']}**; seeds: {', '.join(map(str, doc['seeds'])) or '-'}.",
    ]
    for step in Step:
        part = doc[step.value]
        t = part["totals"]
        lines += [
            "",
            f"## {step.value.capitalize()}"
            + (" (Inductor's Triton CPU backend: see docs/zoo.md, Training steps)" if step is Step.TRAINING else ""),
            "",
            f"{t.get('models_run', 0)} of {t.get('models', 0)} models run: {t.get('certified', 0)} certified kernels "
            f"of {t.get('kernels', 0)}; **{t.get('agreeing', 0)} agreeing, {t.get('disagreeing', 0)} disagreeing**, "
            f"{t.get('oracle_out_of_class', 0)} out of the oracle's class, {t.get('oracle_undecided', 0)} undecided, "
            f"{t.get('oracle_error', 0)} errors; not run: {t.get('not_run_nothing_narrowed', 0)} with nothing to "
            f"narrow, {t.get('not_run_no_record', 0)} without a record. {t.get('active_lanes', 0)} active lanes, "
            f"{t.get('accesses', 0)} lane-accesses, {t.get('steps_run', 0)} loop steps "
            f"({t.get('full_loop_shapes', 0)} shapes with full loops, {t.get('sampled_loop_shapes', 0)} sampled), "
            f"{t.get('asserts', 0)} (assert, lane) pairs inside the premise; masked-off lane-accesses with differing "
            f"addresses: {t.get('tail_differences', 0)} past numel, {t.get('masked_differences', 0)} below numel.",
            "",
            "By phase: " + "; ".join(
                f"{p} {c.get('run', 0)} run, {c.get('agreeing', 0)} agreeing, {c.get('disagreeing', 0)} disagreeing, "
                f"{c.get('not_run_nothing_narrowed', 0)} with nothing to narrow"
                for p, c in part["by"]["phase"].items()) + ". By kernel class (run / agreeing): " + ", ".join(
                f"{k} {c.get('run', 0)} / {c.get('agreeing', 0)}" for k, c in part["by"]["kernel_class"].items()) + ".",
            "",
            "| model | kernels | certified | run | agreeing | disagreeing | ooc / undec / err | nothing narrowed | "
            "no record | shapes | programs | lanes | accesses | steps |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        notes = []
        for name, m in part["models"].items():
            if m["status"] != "run":
                lines.append(f"| {name} | {m['status']} |" + " |" * 12)
                if m["status"] == "capture failed":
                    notes.append(f"* {name}: capture failed ({m['capture_error'][:160]})")
                continue
            lines.append(_line(name, m["counts"]))
            notes += [f"* {name} `{k['kernel']}` ({k['phase']}): **{k['verdict']}** — {k['reason'][:300]}"
                      for k in m["not_agreeing"]]
            notes += [f"* {name} `{n['kernel']}` ({n['phase']}, graph {n['graph']}): not run, {n['why']} — "
                      f"{n['detail']}" for n in m["not_run"]]
        lines.append(_line("**total**", t))
        if notes:
            lines += ["", "Models not run, kernels not agreeing, certified kernels without a record:", "", *notes]
    lines.append("")
    return "\n".join(lines)


def write_summary(zoo: Path, write: Path) -> tuple[dict[str, Any], Path, Path]:
    doc = summary(zoo, write)
    pj, pm = write / "oracle.json", write / "oracle.md"
    _atomic(pj, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _atomic(pm, markdown(doc))
    return doc, pj, pm


def progress_line(step: Step, name: str, doc: dict[str, Any], reused: bool, index: int, total: int,
                  running: Counter) -> str:
    c = doc.get("counts") or {}
    running.update({k: c.get(k, 0) for k in ("run", "agreeing", "disagreeing", "active_lanes")})
    what = ("capture failed" if doc.get("capture_error") else
            f"{c['run']} run, {c['agreeing']} agreeing, {c['disagreeing']} disagreeing, "
            f"{c['oracle_out_of_class'] + c['oracle_undecided'] + c['oracle_error']} other, not run "
            f"{c['not_run_nothing_narrowed']} (nothing narrowed) + {c['not_run_no_record']} (no record)"
            + (" [resumed]" if reused else f" in {doc.get('seconds', 0)} s"))
    return (f"[{index}/{total}] {step.value} {name}: {what} | so far {running['run']} run, {running['agreeing']} "
            f"agreeing, {running['disagreeing']} disagreeing, {running['active_lanes']} lanes")


def print_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
