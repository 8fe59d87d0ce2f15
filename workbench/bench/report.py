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

from workbench.bench import figures, records, stats, validity
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
    after = [b.get("outputs_bitwise_equal") for b in record["blocks"]]
    compiled = [b for b in record["blocks"] if b.get("compiled_during_block")]
    unknown = all(b.get("compiled_during_block") is None for b in record["blocks"])
    lines += [
        "",
        "- Outputs still bitwise equal after every block: "
        + ("not recorded per block" if all(a is None for a in after) else ("yes" if all(after) else "NO")) + ".",
        "- Compilation during measured blocks: "
        + (validity.no_compiles(record).detail if unknown else ("none" if not compiled else f"{len(compiled)} blocks")),
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


def validity_section(rec: dict[str, Any]) -> list[str]:
    out = ["## Validity (checked before any ratio is read)", ""]
    for c in validity.checks(rec):
        mark = "pass" if c.passed else ("not recorded" if c.passed is None else "FAIL")
        out.append(f"- {mark}: {c.name} — {c.detail}")
    return out + [""]


def small_table(rec: dict[str, Any], plan: Plan, c: stats.Comparison) -> str:
    """Per small shape: median µs per call by variant (over blocks) and the paired ratio wide/narrow with its
    CI; for an imported record, the source's own interval beside ours."""
    import numpy as np

    names = list(rec["variants"])
    authors = ((rec.get("provenance") or {}).get("authors_analysis") or {}).get("small", {})
    head = "| shape | " + " | ".join(f"{n} µs" for n in names) + f" | {c.wide}/{c.narrow} median | 95% CI (ours) |"
    if authors:
        head += " 95% CI (authors') |"
    lines = [head, "|---|" + "---|" * (len(names) + 2 + bool(authors))]
    for key, s in c.shapes:
        us = []
        for n in names:
            vals = [stats._block_time(b, key) for b in rec["blocks"] if b["variant"] == n]
            vals = [v for v in vals if v is not None]
            scale = 1.0 if rec.get("imported") else 1e3  # imported: µs already; workbench: ms per call
            us.append(f"{np.median(vals) * scale:.1f}" if vals else "n/a")
        row = f"| {key} | " + " | ".join(us) + f" | {_f(s.median)} | {_f(s.lo)} – {_f(s.hi)} |"
        if authors:
            a = authors.get(key, {}).get("ci")
            row += f" {a[0]:.3f} – {a[1]:.3f} |" if a else " n/a |"
        lines.append(row)
    return "\n".join(lines)


def authors_lines(rec: dict[str, Any], comps: list[stats.Comparison]) -> list[str]:
    a = ((rec.get("provenance") or {}).get("authors_analysis") or {}).get("overall")
    if not a:
        return []
    ours = {(c.wide, c.narrow): c.sequence for c in comps if c.sequence}
    out = ["## Ours against the authors' own analysis", "",
           "| ratio | ours: median (95% CI) | authors': median (95% CI) |", "|---|---|---|"]
    for (w, n), m, ci in ((("B0", "N1"), "median_B0_over_N1", "ci_B0_over_N1"), (("N", "N1"), "median_rT", "ci")):
        s = ours.get((w, n))
        if s and m in a:
            out.append(f"| T({w})/T({n}) | {_f(s.median)} ({_f(s.lo)} – {_f(s.hi)}) | "
                       f"{a[m]:.3f} ({a[ci][0]:.3f} – {a[ci][1]:.3f}) |")
    return out + ["", "Ours: numpy `default_rng(seed)` percentile bootstrap, 10,000 resamples (the workbench's stream); "
                  "the authors' used Python's `random.Random(0)`. Same data, different resampling stream: the sequence "
                  "intervals agree to three decimals; small-shape intervals over 24 heavy-tailed ratios can differ "
                  "in the second decimal.", ""]


def telemetry_lines(rec: dict[str, Any]) -> list[str]:
    t = validity.telemetry_by_variant(rec)
    if not t:
        return []
    out = ["## Telemetry by variant (median over blocks of each block's median)", "",
           "| variant | SM clock MHz | power W | share of samples at SW power cap | blocks |", "|---|---|---|---|---|"]
    out += [f"| {n} | {v['sm_clock_mhz']:.0f} | {v['power_w']:.1f} | {100 * v['power_cap_share']:.0f}% | {v['blocks']} |"
            for n, v in t.items()]
    return out + [""]


def position_lines(rec: dict[str, Any]) -> list[str]:
    field = rec.get("sequence_field", "sequence_ms")
    pm = validity.position_means(rec, field)
    if not pm:
        return []
    unit = "s" if field.endswith("_s") else "ms"
    out = ["## Position effect (mean sequence time by position in the round; 1 = ran first)", "",
           "| variant | " + " | ".join(f"position {p + 1}" for p in range(len(rec["variants"]))) + " |",
           "|---|" + "---|" * len(rec["variants"])]
    for n, d in pm.items():
        out.append(f"| {n} | " + " | ".join(f"{d[p]:.4f} {unit}" if p in d else "n/a"
                                            for p in range(len(rec["variants"]))) + " |")
    return out + ["", "The paired ratios by which variant of the pair ran first are in the tables above "
                  "(`sequence, wide first` / `narrow first`).", ""]


def report(record_path: str | Path, out_dir: str | Path | None = None, plan_path: str | Path | None = None,
           progress: bool = False) -> Report:
    """Verify the record, write the Markdown and the figures under ``out_dir`` (default: the workspace's
    ``figures/``, never the checkout's); ``progress`` shows a bar counting the figures (the slow part: a few
    seconds each)."""
    if out_dir is None:
        from workbench.workspace import figures as workspace_figures

        out_dir = workspace_figures()
    plan, rec = records.load(record_path)
    imported = bool(rec.get("imported"))
    plan_status = ("plan synthesized at import from the source record (not run by the workbench)" if imported
                   else records.check_plan_file(rec, plan_path))
    out = Path(out_dir)
    stem = f"bench-{plan.name}-{rec['mode']}"
    env = rec["environment"][0]
    head = [f"# Timing record: {plan.name} ({rec['mode']}{', imported' if imported else ''})", ""]
    if imported:
        pv = rec["provenance"]
        head += [f"**{pv['label']}.** Source: `{pv['repository']}`, `{pv['path']}` at commit `{pv['commit']}` "
                 f"(SHA-256 of the file `{pv['source_sha256'][:16]}…`). Not measured by this project.", ""]
    head += [
        f"- Plan SHA-256{'' if imported else ' (registered before the run)'}: `{rec['plan_sha256']}`; {plan_status}",
        f"- Program `{plan.program}`, kernel `{rec['kernel']['name']}` ({rec['kernel']['origin']}).",
        f"- Device: {env.get('device')}; driver {env.get('driver')}; torch {env.get('torch')}; "
        f"triton {env.get('triton')}.",
        f"- {rec['note']}",
        f"- {fake_capture_line(rec)}",
        "",
    ]
    if rec["timing_claims"]:
        head += validity_section(rec)
    head += ["## Correctness (bitwise against eager)", "", correctness_table(rec)]
    todo = [lambda: figures.correctness_grid(rec, out / f"{stem}-correctness.png")]
    verdict = None
    if rec["timing_claims"]:
        comps = [stats.compare(rec, plan, w, n) for w, n in plan.comparisons]
        verdict = stats.decide(comps[0], plan.decision)
        head += ["", "## Paired ratios", "",
                 f"Sequence statistic: `{rec.get('sequence_field', 'sequence_ms')}` of each block; median of paired "
                 f"ratios over rounds, percentile bootstrap ({plan.decision.resamples} resamples, seed "
                 f"{plan.decision.seed}).", ""]
        for c in comps:
            head += [comparison_table(c), ""]
        head += ["## Small shapes", "", small_table(rec, plan, comps[0]), ""]
        head += authors_lines(rec, comps)
        head += ["## Pre-registered decision", "",
                 f"**{'ADOPT' if verdict.adopt else 'DO NOT ADOPT'}** {plan.decision.narrow} over {plan.decision.wide}.", ""]
        head += [f"- {'pass' if cr.passed else 'FAIL'}: {cr.text} = {_f(cr.value)} (needs >= {cr.threshold})"
                 for cr in verdict.criteria]
        head += ["", launch_bound_line(rec), ""]
        head += position_lines(rec) + telemetry_lines(rec)
        tele = [t for t in rec["telemetry"] if not t["available"]]
        if tele:
            head += ["", f"- Telemetry absent: {tele[0]['reason']}"]
        d = plan.decision
        todo.append(lambda: figures.ratio_per_shape(comps, out / f"{stem}-ratios.png",
                                                    {"per-shape floor": d.per_shape_ci_lower_at_least,
                                                     "median needed": d.median_at_least}, title=_title(rec)))
        if imported:
            from workbench import figures as report_figures

            pairs = [(c.wide, c.narrow) for c in comps]
            todo += [lambda: report_figures.triple_ratios(rec, pairs, out, d.resamples, d.seed),
                     lambda: report_figures.shape_times(rec, out), lambda: report_figures.block_telemetry(rec, out)]
        else:
            todo += [lambda: figures.sequence_times(rec, out / f"{stem}-sequence.png"),
                     lambda: figures.telemetry(rec, out / f"{stem}-telemetry.png")]
    if progress:
        from workbench import progress as progress_mod

        todo = progress_mod.track(todo, desc="figures", unit="figure")
    figs = [draw() for draw in todo]
    text = "\n".join(head).rstrip() + "\n"
    md = out / f"{stem}.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(text)
    return Report(md, tuple(figs), verdict, text)


def to_document(record_path: str | Path, r: Report) -> dict[str, Any]:
    """The report as a ``workbench.bench.report/1`` document: every comparison's numbers and the decision."""
    from workbench.contract import Verdict, document

    plan, rec = records.load(record_path)
    body: dict[str, Any] = {"record": str(record_path), "markdown": str(r.markdown),
                            "figures": [str(f) for f in r.figures], "timing_claims": bool(rec["timing_claims"]),
                            "provenance": rec.get("provenance", {}).get("label") if rec.get("imported") else None,
                            "validity": [{"check": c.name, "passed": c.passed, "detail": c.detail}
                                         for c in validity.checks(rec)] if rec["timing_claims"] else []}
    if rec["timing_claims"]:
        summ = lambda s: None if s is None else {"median": s.median, "lo": s.lo, "hi": s.hi, "n": s.n}  # noqa: E731
        comps = [stats.compare(rec, plan, w, n) for w, n in plan.comparisons]
        body["comparisons"] = [{"wide": c.wide, "narrow": c.narrow, "sequence": summ(c.sequence),
                                "shapes": {k: summ(s) for k, s in c.shapes},
                                "by_first": {k: summ(s) for k, s in c.by_first}} for c in comps]
        body["decision"] = {"adopt": r.verdict.adopt, "narrow": r.verdict.narrow, "wide": r.verdict.wide,
                            "criteria": [{"text": c.text, "value": c.value, "threshold": c.threshold,
                                          "passed": c.passed} for c in r.verdict.criteria]}
        body["telemetry_by_variant"] = validity.telemetry_by_variant(rec)
    return document("bench.report", 1, Verdict.OK, **body)


def _title(rec: dict[str, Any]) -> str:
    from workbench.figures import source_label

    return "Paired ratios per shape — " + source_label(rec)


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
