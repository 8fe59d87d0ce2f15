"""TimingPlot: paired narrowed-against-wide ratios with bootstrap CIs over run records.

Holds state (the loaded records, the chosen record, wide and narrow variants, shapes) and renders; every
number comes from :mod:`workbench.bench.stats` and the picture from :func:`workbench.bench.figures.ratio_per_shape`.
Records without timings (dry runs) are listed but show a plain message instead of numbers.
"""

from __future__ import annotations

import html
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

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
        self.table = w.HTML()
        self.image = w.Image(format="png")
        self.record.observe(self._on_record, names="value")
        for c in (self.wide, self.narrow, self.shapes):
            c.observe(lambda _change: self.refresh(), names="value")
        super().__init__([w.HBox([self.record, self.wide, self.narrow]), self.shapes, self.table, self.image], **kwargs)
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

    # -- rendering -------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not self._runs or self.wide.value is None or self.narrow.value is None:
            return
        rec, plan = self._runs[self.record.value]
        if not rec.get("timing_claims"):
            self.table.value = (f"<p><b>{html.escape(self.record.value)}</b> is a {html.escape(rec['mode'])} "
                                "record: correctness only, nothing was timed.</p>")
            self.image.value = b""
            return
        if self.wide.value == self.narrow.value:
            self.table.value = "<p>Choose two different variants.</p>"
            self.image.value = b""
            return
        c = self.comparison()
        assert c is not None
        rows = ([("sequence", c.sequence)] if c.sequence else []) + list(c.shapes)
        body = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{s.median:.3f}</td><td>{s.lo:.3f} – {s.hi:.3f}</td><td>{s.n}</td></tr>"
            for k, s in rows
        )
        note = html.escape(rec.get("note", ""))
        self.table.value = (
            f"<p>{note}</p><table><tr><th>{html.escape(c.wide)}/{html.escape(c.narrow)}</th><th>median</th>"
            f"<th>95% CI</th><th>n</th></tr>{body}</table>"
        )
        with tempfile.TemporaryDirectory() as tmp:
            p = figures.ratio_per_shape([c], Path(tmp) / "ratios.png")
            self.image.value = p.read_bytes()

