"""Turn one run record into tables and figures.

Stage: bench (report). :func:`report` verifies the record (schema, the embedded plan's hash, the plan file's
hash when the file is present), then writes under ``out_dir``: a Markdown table file
``bench-<plan>-<mode>.md`` and the figures of :mod:`workbench.bench.figures`. A dry-run record yields the
correctness table and grid only, and the text says that nothing was timed. The Markdown is deterministic
(sorted iteration, fixed number formats, no clocks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.bench import figures, records, stats
from workbench.bench.plan import Plan
from workbench.errors import InputError


@dataclass(frozen=True, slots=True)
class Report:
    markdown: Path
    figures: tuple[Path, ...]
    verdict: stats.Verdict | None
    text: str


def _f(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def fake_capture_line(rec: dict[str, Any]) -> str:
    cmp = rec["kernel"].get("fake_cuda_comparison")
    if not cmp:
        return "Kernel captured without a GPU vs. compiled on the GPU: not compared in this run."
    if "error" in cmp:
        return f"Kernel captured without a GPU vs. compiled on the GPU: comparison failed ({cmp['error']})."
    if cmp["equal"]:
        return f"Kernel captured without a GPU (fake-cuda:{cmp['profile']}) is byte-identical to the GPU's."
    return (f"Kernel captured without a GPU (fake-cuda:{cmp['profile']}) DIFFERS from the GPU's: "
            f"{len(cmp['differences'])} diff lines stored in the record.")


def launch_bound_line(rec: dict[str, Any]) -> str:
    """Flag blocks whose host took about as long to issue the sequence as the GPU took to run it: there the
    CUDA-event times measure launch overhead, not the kernels."""
    pairs = [(b["sequence_host_issue_ms"], b["sequence_ms"]) for b in rec["blocks"]
             if b.get("sequence_host_issue_ms") is not None and b.get("sequence_ms")]
    if not pairs:
        return "- Host issue time of the sequence: not recorded."
    bound = sum(1 for h, g in pairs if h >= 0.9 * g)
    return (f"- Host issue time >= 90% of GPU sequence time (launch-bound) in {bound} of {len(pairs)} blocks"
            + (": treat those ratios as launch-overhead measurements." if bound else "."))


def correctness_table(record: dict[str, Any]) -> str:
    names = list(record["variants"])
    shapes = list(dict.fromkeys(c["shape"] for c in record["correctness"]))
    ok: dict[tuple[str, str], bool] = {}
    for c in record["correctness"]:
        ok[(c["variant"], c["shape"])] = ok.get((c["variant"], c["shape"]), True) and bool(c["bitwise_equal"])
    lines = ["| shape | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for s in shapes:
        lines.append(f"| {s} | " + " | ".join("equal" if ok[(n, s)] else "**DIFFERS**" for n in names) + " |")
    blocks_ok = all(b["outputs_bitwise_equal"] for b in record["blocks"])
    compiled = [b for b in record["blocks"] if b["compiled_during_block"]]
    unknown = all(b["compiled_during_block"] is None for b in record["blocks"])
    lines += [
        "",
        f"- Outputs still bitwise equal after every block: {'yes' if blocks_ok else 'NO'}.",
        "- Compilation during measured blocks: "
        + ("not applicable (interpreter)" if unknown else ("none" if not compiled else f"{len(compiled)} blocks")),
    ]
    return "\n".join(lines)


def comparison_table(c: stats.Comparison) -> str:
    lines = [f"| {c.wide}/{c.narrow} | median | 95% CI | n |", "|---|---|---|---|"]
    rows = ([("sequence", c.sequence)] if c.sequence else []) + list(c.shapes)
    rows += [(f"sequence, process {p}", s) for p, s in c.by_process]
    rows += [(f"sequence, {f}", s) for f, s in c.by_first]
    rows += [(f"sequence, order {o}", s) for o, s in c.by_order]
    for key, s in rows:
        lines.append(f"| {key} | {_f(s.median)} | {_f(s.lo)} – {_f(s.hi)} | {s.n} |")
    return "\n".join(lines)


def report(record_path: str | Path, out_dir: str | Path = "figures", plan_path: str | Path | None = None) -> Report:
    plan, rec = records.load(record_path)
    plan_status = records.check_plan_file(rec, plan_path)
    out = Path(out_dir)
    stem = f"bench-{plan.name}-{rec['mode']}"
    env = rec["environment"][0]
    head = [
        f"# Timing record: {plan.name} ({rec['mode']})",
        "",
        f"- Plan SHA-256 (registered before the run): `{rec['plan_sha256']}`; {plan_status}",
        f"- Program `{plan.program}`, kernel `{rec['kernel']['name']}` ({rec['kernel']['origin']}).",
        f"- Device: {env.get('device')}; driver {env.get('driver')}; torch {env.get('torch')}; "
        f"triton {env.get('triton')}.",
        f"- {rec['note']}",
        f"- {fake_capture_line(rec)}",
        "",
        "## Correctness (bitwise against eager)",
        "",
        correctness_table(rec),
    ]
    figs = [figures.correctness_grid(rec, out / f"{stem}-correctness.png")]
    verdict = None
    if rec["timing_claims"]:
        comps = [stats.compare(rec, plan, w, n) for w, n in plan.comparisons]
        verdict = stats.decide(comps[0], plan.decision)
        head += ["", "## Paired ratios", ""]
        for c in comps:
            head += [comparison_table(c), ""]
        head += ["## Pre-registered decision", "",
                 f"**{'ADOPT' if verdict.adopt else 'DO NOT ADOPT'}** {plan.decision.narrow} over {plan.decision.wide}.", ""]
        head += [f"- {'pass' if cr.passed else 'FAIL'}: {cr.text} = {_f(cr.value)} (needs >= {cr.threshold})"
                 for cr in verdict.criteria]
        head += ["", launch_bound_line(rec)]
        tele = [t for t in rec["telemetry"] if not t["available"]]
        if tele:
            head += ["", f"- Telemetry absent: {tele[0]['reason']}"]
        d = plan.decision
        figs.append(figures.ratio_per_shape(comps, out / f"{stem}-ratios.png",
                                            {"per-shape floor": d.per_shape_ci_lower_at_least,
                                             "median needed": d.median_at_least}))
        figs.append(figures.sequence_times(rec, out / f"{stem}-sequence.png"))
        figs.append(figures.telemetry(rec, out / f"{stem}-telemetry.png"))
    text = "\n".join(head).rstrip() + "\n"
    md = out / f"{stem}.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(text)
    return Report(md, tuple(figs), verdict, text)


def load_plan_of(record_path: str | Path) -> Plan:
    return records.load(record_path)[0]


def runs_in(folder: str | Path = "data/runs") -> dict[str, list[Path]]:
    """Run records under ``folder`` split by kind: ``gpu`` (measured), ``dry-run`` and ``synthetic``.
    Files that are not valid records are listed under ``invalid`` rather than silently skipped."""
    out: dict[str, list[Path]] = {"gpu": [], "dry-run": [], "synthetic": [], "invalid": []}
    for p in sorted(Path(folder).glob("*.json")):
        try:
            _, rec = records.load(p)
        except InputError:  # malformed record, other schema, changed or unreadable plan
            out["invalid"].append(p)
            continue
        out["synthetic" if rec.get("synthetic") else rec["mode"]].append(p)
    return out
