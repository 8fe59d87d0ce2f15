"""TimingPlot: paired narrowed-against-wide ratios with bootstrap CIs over run records.

Holds state (the loaded records, the chosen record, wide and narrow variants, shapes) and renders; every
number comes from :mod:`workbench.bench.stats` and the picture from :func:`workbench.bench.figures.ratio_per_shape`.
What it shows:

* the source of the record (for an imported one: who measured it, repository, path, commit);
* the paired ratios with their CIs, the plan's decision thresholds drawn on the figure and, when the chosen
  pair is the plan's decision pair, the pre-registered verdict with every criterion;
* per-call times of both variants at each chosen shape (median over blocks);
* for a dry-run record or an invalid choice (one variant against itself), a plain message and no image at
  all (never an empty, broken image).
"""

from __future__ import annotations

import html
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np

from workbench.bench import figures, records, stats
from workbench.bench.plan import Plan, shape_key


class TimingPlot(w.VBox):
    """``TimingPlot(["data/runs/x.json", ...])`` or ``TimingPlot([(label, record_dict), ...])``."""

    def __init__(self, runs: Sequence[str | Path | tuple[str, dict[str, Any]]], **kwargs: Any):
        self._runs: dict[str, tuple[dict[str, Any], Plan]] = {}
        for item in runs:
            if isinstance(item, tuple):
                label, rec = item
                self._runs[label] = (rec, records.verify(rec, where=label))
            else:
                plan, rec = records.load(item)
                self._runs[Path(item).name] = (rec, plan)
        self.record = w.Dropdown(options=list(self._runs), description="record")
        self.wide = w.Dropdown(description="wide")
        self.narrow = w.Dropdown(description="narrow")
        self.shapes = w.SelectMultiple(description="shapes", rows=6)
        self.source = w.HTML()
        self.table = w.HTML()
        self.verdict = w.HTML()
        self.times = w.HTML()
        self.image = w.Image(format="png", layout=w.Layout(display="none"))
        self.record.observe(self._on_record, names="value")
        for c in (self.wide, self.narrow, self.shapes):
            c.observe(lambda _change: self.refresh(), names="value")
        super().__init__([w.HBox([self.record, self.wide, self.narrow]), self.shapes, self.source, self.table,
                          self.verdict, self.image, self.times], **kwargs)
        if self._runs:
            self._on_record(None)
        else:
            self.table.value = "<i>No run records to show.</i>"

    # -- state --------------------------------------------------------------------------------------------
    def _on_record(self, _change: Any) -> None:
        rec, plan = self._runs[self.record.value]
        names = list(plan.variants)
        with self.hold_trait_notifications():
            self.wide.options = names
            self.narrow.options = names
            self.wide.value = plan.decision.wide
            self.narrow.value = plan.decision.narrow
            keys = ["sequence"] + [shape_key(sh) for sh in plan.gpu.small]
            self.shapes.options = keys
            self.shapes.value = tuple(keys)
        self.refresh()

    def comparison(self) -> stats.Comparison | None:
        """The statistics the view shows (None when the record holds no timings or the pair is one variant)."""
        rec, plan = self._runs[self.record.value]
        if not rec.get("timing_claims") or self.wide.value == self.narrow.value:
            return None
        c = stats.compare(rec, plan, self.wide.value, self.narrow.value)
        chosen = set(self.shapes.value)
        return stats.Comparison(
            c.wide, c.narrow, c.sequence if "sequence" in chosen else None,
            tuple((k, s) for k, s in c.shapes if k in chosen), c.by_process, c.by_first, c.by_order,
        )

    def decision(self) -> stats.Verdict | None:
        """The plan's pre-registered verdict when the chosen pair is the plan's decision pair (all shapes)."""
        rec, plan = self._runs[self.record.value]
        d = plan.decision
        if not rec.get("timing_claims") or (self.wide.value, self.narrow.value) != (d.wide, d.narrow):
            return None
        return stats.decide(stats.compare(rec, plan, d.wide, d.narrow), d)

    def per_call_times(self) -> list[tuple[str, float | None, float | None, str]]:
        """(shape, wide, narrow, unit) per chosen shape: median over blocks of the block's per-call time."""
        rec, _ = self._runs[self.record.value]
        imported = bool(rec.get("imported"))
        out = []
        for key in self.shapes.value:
            row: list[float | None] = []
            for v in (self.wide.value, self.narrow.value):
                if key == "sequence":
                    vals = [b.get(rec.get("sequence_field", "sequence_ms")) for b in rec["blocks"] if b["variant"] == v]
                else:
                    vals = [stats._block_time(b, key) for b in rec["blocks"] if b["variant"] == v]
                vals = [x for x in vals if x is not None]
                scale = 1.0 if imported or key == "sequence" else 1e3
                row.append(float(np.median(vals)) * scale if vals else None)
            unit = ("s per pass" if rec.get("sequence_field", "").endswith("_s") else "ms per pass") \
                if key == "sequence" else "µs per call"
            out.append((key, row[0], row[1], unit))
        return out

    # -- rendering -------------------------------------------------------------------------------------------
    def _hide_image(self) -> None:
        self.image.layout.display = "none"
        self.image.value = b""

    def refresh(self) -> None:
        if not self._runs or self.wide.value is None or self.narrow.value is None:
            return
        rec, plan = self._runs[self.record.value]
        self.source.value = self._source_html(rec)
        self.verdict.value = ""
        self.times.value = ""
        if not rec.get("timing_claims"):
            self.table.value = (f"<p><b>{html.escape(self.record.value)}</b> is a {html.escape(rec['mode'])} "
                                "record: correctness only, <b>not timed</b> (no timer ran).</p>")
            self._hide_image()
            return
        if self.wide.value == self.narrow.value:
            self.table.value = "<p>Choose two different variants.</p>"
            self._hide_image()
            return
        c = self.comparison()
        assert c is not None
        rows = ([("sequence", c.sequence)] if c.sequence else []) + list(c.shapes)
        if not rows:
            self.table.value = "<p>Choose at least one shape.</p>"
            self._hide_image()
            return
        body = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{s.median:.3f}</td><td>{s.lo:.3f} – {s.hi:.3f}</td><td>{s.n}</td></tr>"
            for k, s in rows
        )
        self.table.value = (
            f"<table><tr><th>{html.escape(c.wide)}/{html.escape(c.narrow)}</th><th>median</th>"
            f"<th>95% CI</th><th>n</th></tr>{body}</table>"
        )
        v = self.decision()
        if v is not None:
            crit = "".join(f"<li>{'pass' if cr.passed else '<b>FAIL</b>'}: {html.escape(cr.text)} = {cr.value:.3f} "
                           f"(needs ≥ {cr.threshold})</li>" for cr in v.criteria)
            self.verdict.value = (f"<p>Pre-registered decision: <b>{'ADOPT' if v.adopt else 'DO NOT ADOPT'}</b> "
                                  f"{html.escape(v.narrow)} over {html.escape(v.wide)}</p><ul>{crit}</ul>")
        self.times.value = self._times_html()
        d = plan.decision
        thresholds = {"per-shape CI floor": d.per_shape_ci_lower_at_least, "median needed": d.median_at_least,
                      "CI lower bound needed": d.ci_lower_at_least}
        title = "Paired ratios" + (f" — verdict: {'ADOPT' if v.adopt else 'DO NOT ADOPT'} {v.narrow}" if v else "")
        prov = rec.get("provenance")
        if prov:
            title += f"\n{prov['label']} ({prov['repository']} @ {prov['commit'][:12]})"
        with tempfile.TemporaryDirectory() as tmp:
            p = figures.ratio_per_shape([c], Path(tmp) / "ratios.png", thresholds, title=title)
            self.image.value = p.read_bytes()
        self.image.layout.display = None

    def _source_html(self, rec: dict[str, Any]) -> str:
        prov = rec.get("provenance")
        if prov:
            return (f"<p><b>{html.escape(prov['label'])}</b> — {html.escape(prov['repository'])}, "
                    f"<code>{html.escape(prov['path'])}</code> at <code>{html.escape(prov['commit'][:12])}</code>. "
                    "Not measured by this project.</p>")
        env = rec["environment"][0]
        return f"<p>{html.escape(rec.get('note', ''))} Device: {html.escape(str(env.get('device')))}.</p>"

    def _times_html(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{'n/a' if a is None else f'{a:.4g}'}</td>"
            f"<td>{'n/a' if b is None else f'{b:.4g}'}</td><td>{html.escape(u)}</td></tr>"
            for k, a, b, u in self.per_call_times())
        return (f"<p>Per-call times (median over blocks)</p><table><tr><th>shape</th><th>{html.escape(self.wide.value)}"
                f"</th><th>{html.escape(self.narrow.value)}</th><th>unit</th></tr>{rows}</table>")
