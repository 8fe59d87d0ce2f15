"""The zoo table: ``zoo.json`` (contract ``workbench.zoo/1``) and ``zoo.md`` from the per-model results.

Stage: zoo (reporting; pure functions of :class:`~workbench.zoo.runner.ModelResult`). Per model: kernels,
parsed by the IR, out of class by reason, certified strict / observable, refused with and without a
counterexample, check errors, capture and check time. Totals give the share of real kernels the checker
reaches: *in class* (the checker models the kernel: certified or refused) and *certified* (strict and
observable) over all captured kernels, and the certified shares again over the kernels with something to
narrow (at least one int64 size argument), since a kernel with only int32 arguments is certified trivially.

Training steps (``zoo run --backward``, kept under ``DIR/train/``) are a second set of results over the same
models: the document's ``training`` part has the same rows and totals over them, and every model's row in the
table gets the training step's forward and backward columns (kernels, certified strict, observable).

The document's verdict is about the run, not the kernels: ``ok`` when every model captured and every kernel
got a verdict, ``error`` when a model failed to capture or a check raised (inference or training); kernel
verdicts are payload. Rows are sorted by model name; the only run-dependent values are the timings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from workbench.check.classes import by_class, class_table, outcome_class
from workbench.contract import Verdict, document
from workbench.zoo.runner import ModelResult


@dataclass(frozen=True, slots=True)
class Row:
    model: str
    source: str
    error: str
    graphs: int
    graph_breaks: int
    kernels: int
    parsed: int
    in_class: int
    out_of_class: Mapping[str, int]
    strict: int
    observable: int
    refused_cex: int
    refused_no_cex: int
    errors: int
    capture_seconds: float
    check_seconds: float
    capture_cached: bool = False  # capture_seconds is reading the capture cache (workbench.capture.cache)
    # kernels with something to narrow (at least one int64 size argument) and their verdicts; None where a
    # result predates the count (`zoo recheck` fills it in)
    narrowable: int | None = None
    narrowable_strict: int | None = None
    narrowable_observable: int | None = None
    backward_narrowable: int | None = None  # the same over the backward kernels of a training step
    backward_narrowable_strict: int | None = None
    backward_narrowable_observable: int | None = None
    # kernels of a training step's backward graph (zoo run --backward) and their verdicts; 0 for inference
    backward: int = 0
    backward_strict: int = 0
    backward_observable: int = 0
    classes: tuple = ()  # (KernelClass, strict, observable) per kernel, for the by-class table (not in JSON)


def distinct(r: ModelResult) -> tuple:
    """The model's kernels, each (graph, name) once: results captured before capture dropped Inductor's
    repeated definitions of one kernel (a layer used N times) list it N times, with identical outcomes."""
    seen: set = set()
    out = []
    for k in r.kernels:
        if (k.graph, k.name) not in seen:
            seen.add((k.graph, k.name))
            out.append(k)
    return tuple(out)


def row(r: ModelResult) -> Row:
    ks = distinct(r)
    refused = [k for k in ks if k.observable == "refused"]
    return Row(
        model=r.name, source=r.source, error=r.error, graphs=r.graphs, graph_breaks=len(r.graph_breaks),
        kernels=len(ks), parsed=sum(k.parsed for k in ks),
        in_class=sum(k.observable in ("certified", "refused") for k in ks),
        out_of_class=dict(sorted(Counter(k.out_of_class for k in ks if k.out_of_class).items())),
        strict=sum(k.strict == "certified" for k in ks), observable=sum(k.observable == "certified" for k in ks),
        refused_cex=sum(k.counterexample for k in refused), refused_no_cex=sum(not k.counterexample for k in refused),
        errors=sum("error" in (k.strict, k.observable) for k in ks),
        capture_seconds=round(r.capture_seconds, 1), check_seconds=round(r.check_seconds, 1),
        capture_cached=r.capture_cached, **_narrowable(ks),
        backward=sum(k.phase == "backward" for k in ks),
        backward_strict=sum(k.phase == "backward" and k.strict == "certified" for k in ks),
        backward_observable=sum(k.phase == "backward" and k.observable == "certified" for k in ks),
        classes=tuple((outcome_class(k.name, k.index_dtype, k.out_of_class, k.kernel_class),
                       str(getattr(k.strict, "value", k.strict)), str(getattr(k.observable, "value", k.observable)))
                      for k in ks),
    )


def _narrowable(ks) -> dict:
    """Counts over the kernels with at least one int64 size argument (the ones narrowing could change): a
    kernel with only int32 arguments is certified trivially and inflates a share over all kernels."""
    if any(k.wide_size_args is None for k in ks):
        return {}  # the fields' default: not known
    wide = [k for k in ks if k.wide_size_args > 0]
    back = [k for k in wide if k.phase == "backward"]
    return {"narrowable": len(wide), "narrowable_strict": sum(k.strict == "certified" for k in wide),
            "narrowable_observable": sum(k.observable == "certified" for k in wide),
            "backward_narrowable": len(back), "backward_narrowable_strict": sum(k.strict == "certified" for k in back),
            "backward_narrowable_observable": sum(k.observable == "certified" for k in back)}


def totals(rows: list[Row]) -> dict:
    n = sum(r.kernels for r in rows)
    ooc: Counter = Counter()
    for r in rows:
        ooc.update(r.out_of_class)

    def share(k: int) -> float:
        return round(k / n, 4) if n else 0.0

    keys = ("kernels", "parsed", "in_class", "strict", "observable", "refused_cex", "refused_no_cex", "errors",
            "backward", "backward_strict", "backward_observable")
    classes = [c for r in rows for c in r.classes]
    t = {k: sum(getattr(r, k) for r in rows) for k in keys}
    t.update(
        models=len(rows), models_captured=sum(not r.error for r in rows),
        sources=sorted({r.source for r in rows if not r.error}),
        out_of_class=dict(sorted(ooc.items(), key=lambda kv: (-kv[1], kv[0]))),
        share_in_class=share(t["in_class"]), share_strict=share(t["strict"]),
        share_observable=share(t["observable"]),
        by_class=by_class(classes),
    )
    # the same shares over kernels with something to narrow (None when some result predates the count)
    known = all(r.narrowable is not None for r in rows if not r.error)
    m = sum(r.narrowable or 0 for r in rows) if known else None
    t.update({k: sum(getattr(r, k) or 0 for r in rows) if known else None
              for k in ("narrowable", "narrowable_strict", "narrowable_observable", "backward_narrowable",
                        "backward_narrowable_strict", "backward_narrowable_observable")})
    t["share_narrowable_strict"] = round(t["narrowable_strict"] / m, 4) if m else None
    t["share_narrowable_observable"] = round(t["narrowable_observable"] / m, 4) if m else None
    return t


def build(results: Mapping[str, ModelResult], config: Mapping[str, object],
          training: Mapping[str, ModelResult] | None = None) -> dict:
    """The ``zoo.json`` document: inference ``results`` (``models``, ``totals``) and, when given, the training
    steps' results (``training``: the same ``models`` and ``totals`` over forward and backward kernels)."""
    rows = [row(results[n]) for n in sorted(results)]
    trows = [row(training[n]) for n in sorted(training or {})]
    bad = any(r.error or r.errors for r in rows + trows)
    extra = {}
    if trows:
        extra["training"] = {"totals": totals(trows), "models": [_model_json(r, training[r.model]) for r in trows]}
    return document(
        "zoo", 1, Verdict.ERROR if bad else Verdict.OK,
        config=dict(config), totals=totals(rows), models=[_model_json(r, results[r.model]) for r in rows], **extra,
    )


def _model_json(r: Row, result: ModelResult) -> dict:
    return dict(_row_json(r), kernels_detail=[_kernel_json(k) for k in distinct(result)],
                graph_breaks_detail=list(result.graph_breaks), dynamic_dims=list(result.dynamic_dims))


def _row_json(r: Row) -> dict:
    from dataclasses import asdict

    d = asdict(r)
    d["by_class"] = by_class(r.classes)
    del d["classes"]
    if not r.capture_cached:  # documents written before the capture cache read the same
        del d["capture_cached"]
    return d


def _kernel_json(k) -> dict:
    return {"name": k.name, "graph": k.graph, "index_dtype": k.index_dtype, "parsed": k.parsed,
            "out_of_class": k.out_of_class, "strict": k.strict, "observable": k.observable,
            "counterexample": k.counterexample, "reason": k.reason, "wide_size_args": k.wide_size_args,
            "phase": k.phase,
            "kernel_class": outcome_class(k.name, k.index_dtype, k.out_of_class, k.kernel_class).value}


def markdown(doc: dict) -> str:
    """``zoo.md``: the per-model table (with each model's training-step columns), the shares, the by-class
    table and the out-of-class histogram; then the same for the training steps when there are any."""
    t = doc["totals"]
    training = doc.get("training")
    steps = {m["model"]: m for m in training["models"]} if training else {}
    lines = [
        "# Zoo: real models through capture and the checker",
        "",
        f"{t['models_captured']} of {t['models']} models captured (sources: {', '.join(t['sources']) or '-'}); "
        f"{t['kernels']} Triton kernels. Device: {doc['config'].get('device', '?')}.",
        "",
        *_share_lines(t),
        *([_phase_line(t), ""] if t.get("backward") else []),
        *_table(doc["models"], steps),
        *_class_lines(t),
        *_break_lines(doc["models"]),
    ]
    if training:
        tt = training["totals"]
        lines += [
            "", "## Training steps: forward and backward kernels", "",
            f"{tt['models_captured']} of {tt['models']} models captured a training step (`zoo run --backward`: "
            "the output summed and differentiated with respect to the parameters and floating inputs; "
            f"{doc['config'].get('training_device', 'see docs/zoo.md')}); {tt['kernels']} Triton kernels.",
            "", _phase_line(tt), "", *_share_lines(tt), *_table(training["models"], None), *_class_lines(tt),
            *_break_lines(training["models"]),
        ]
    lines.append("")
    return "\n".join(lines)


def _share_lines(t: dict) -> list[str]:
    return [
        f"**Share of real kernels the checker reaches:** in class {t['in_class']}/{t['kernels']} "
        f"({100 * t['share_in_class']:.1f}%); certified strict {t['strict']} ({100 * t['share_strict']:.1f}%), "
        f"observable {t['observable']} ({100 * t['share_observable']:.1f}%).",
        "",
        _narrowable_line(t),
        "",
    ]


def _table(models: list[dict], steps: Mapping[str, dict] | None) -> list[str]:
    """One row per model. ``steps``: the training rows by model, for the inference table's training columns
    (None: the rows are training steps themselves, split by phase)."""
    lines = [
        "| model | source | graphs (breaks) | kernels | parsed | out of class | strict | observable "
        "| int64 args: kernels (strict, observable) | training forward: kernels (strict, observable) "
        "| training backward: kernels (strict, observable) | refused, cex "
        "| refused, no cex | errors | capture s | check s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in models:
        fwd, bwd = _step_cells(m if steps is None or m.get("backward") else steps.get(m["model"]))
        if m["error"]:
            lines.append(f"| {m['model']} | {m['source']} | capture failed: {_cell(m['error'][:300])} "
                         f"| | | | | | | {fwd} | {bwd} | | | | " + f"{m['capture_seconds']} | |")
            continue
        ooc = sum(m["out_of_class"].values())
        lines.append(
            f"| {m['model']} | {m['source']} | {m['graphs']} ({m['graph_breaks']}) | {m['kernels']} | {m['parsed']} "
            f"| {ooc} | {m['strict']} | {m['observable']} | {_narrow_cell(m)} | {fwd} | {bwd} "
            f"| {m['refused_cex']} | {m['refused_no_cex']} "
            f"| {m['errors']} | {m['capture_seconds']}{' (cached)' if m.get('capture_cached') else ''} "
            f"| {m['check_seconds']} |"
        )
    return lines


def _class_lines(t: dict) -> list[str]:
    lines = []
    if t.get("by_class"):  # documents written before classes existed have none
        lines += ["", "### By kernel class", ""] + class_table(t["by_class"])
    lines += ["", "### Out of class, by reason", "", "| reason | kernels |", "|---|---|"]
    # by count, then name: the order survives a JSON round trip (zoo.json's keys are sorted)
    lines += [f"| {_cell(k)} | {v} |" for k, v in sorted(t["out_of_class"].items(), key=lambda kv: (-kv[1], kv[0]))]
    return lines


def _break_lines(models: list[dict]) -> list[str]:
    breaks = [(m["model"], b) for m in models for b in m["graph_breaks_detail"]]
    return ["", "### Graph breaks", ""] + [f"- {m}: {_cell(b)}" for m, b in breaks] if breaks else []


def _step_cells(m: dict | None) -> tuple[str, str]:
    """A training step's forward and backward cells: kernels (certified strict, observable); "-" when the
    model has no training step in this run, "capture failed" when it did not capture."""
    if m is None:
        return "-", "-"
    if m["error"]:
        return "capture failed", "capture failed"
    fwd = (m["kernels"] - m["backward"], m["strict"] - m["backward_strict"],
           m["observable"] - m["backward_observable"])
    return f"{fwd[0]} ({fwd[1]}, {fwd[2]})", _backward_cell(m)


def _backward_cell(m: dict) -> str:
    if not m.get("backward"):
        return "0 (0, 0)"
    return f"{m['backward']} ({m['backward_strict']}, {m['backward_observable']})"


def _narrow_cell(m: dict) -> str:
    if m.get("narrowable") is None:
        return "-"
    return f"{m['narrowable']} ({m['narrowable_strict']}, {m['narrowable_observable']})"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write(doc: dict, out: Path) -> tuple[Path, Path]:
    import json

    pj, pm = out / "zoo.json", out / "zoo.md"
    pj.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    pm.write_text(markdown(doc))
    return pj, pm


def _narrowable_line(t: dict) -> str:
    """The shares over kernels with something to narrow, beside the shares over all kernels (issue 24: a
    kernel whose size arguments are all int32 already is certified without narrowing anything)."""
    if t.get("narrowable") is None:
        return ("**Over kernels with something to narrow** (at least one int64 size argument): not known for "
                "results recorded before the count; run `workbench zoo recheck`.")
    m = t["narrowable"]
    if not m:
        return "**Over kernels with something to narrow** (at least one int64 size argument): none."
    return (f"**Over kernels with something to narrow** (at least one int64 size argument): {m} of {t['kernels']}; "
            f"certified strict {t['narrowable_strict']} ({100 * t['share_narrowable_strict']:.1f}%), observable "
            f"{t['narrowable_observable']} ({100 * t['share_narrowable_observable']:.1f}%).")


def _phase_line(t: dict) -> str:
    """Forward and backward kernels of training steps (zoo run --backward), each with its certified counts."""
    f = t["kernels"] - t["backward"]
    fs, fo = t["strict"] - t["backward_strict"], t["observable"] - t["backward_observable"]
    line = (f"**Training steps:** forward {f} kernels (certified strict {fs}, observable {fo}); backward "
            f"{t['backward']} kernels (certified strict {t['backward_strict']}, observable "
            f"{t['backward_observable']}).")
    if t.get("backward_narrowable") is None:
        return line
    m, b = t["narrowable"], t["backward_narrowable"]
    return (f"{line} With at least one int64 size argument: forward {m - b} (certified strict "
            f"{t['narrowable_strict'] - t['backward_narrowable_strict']}, observable "
            f"{t['narrowable_observable'] - t['backward_narrowable_observable']}), backward {b} (certified strict "
            f"{t['backward_narrowable_strict']}, observable {t['backward_narrowable_observable']}).")
