"""SideConditionView: a kernel's narrowing verdict with its side conditions (claim, reason, subexpression,
lane class, status, prover) and, for a rejection, the counterexample.

Holds state and renders; the verdict comes from :func:`workbench.check.api.check_kernel` (it computes
nothing itself). Programs and kernels are read from the saved records under ``data/kernels/``.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as w

from workbench.capture.record import CapturedKernel, load_dir

_COLOURS = {"proved": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700", "conflict": "#cf222e"}


def verdict_html(v) -> str:
    """Render a :class:`~workbench.check.api.Verdict` (pure formatting)."""
    head = (
        f"<b>{html.escape(v.program)}/{html.escape(v.kernel)}</b> [{html.escape(v.mode)}]: "
        f"<b>{html.escape(v.verdict.upper())}</b><br><small>{html.escape(v.reason)}</small>"
    )
    if v.counterexample is not None:
        c = v.counterexample
        head += (
            "<h4>Counterexample</h4><table>"
            f"<tr><td>shape</td><td><code>{html.escape(str(dict(c.shape)))}</code></td></tr>"
            f"<tr><td>lane</td><td><code>{html.escape(str(dict(c.lane)) or 'any')}</code></td></tr>"
            f"<tr><td>subexpression</td><td><code>{html.escape(c.subexpression)}</code></td></tr>"
            f"<tr><td>wide / narrowed</td><td><code>{c.wide}</code> / <code>{c.narrowed}</code></td></tr>"
            f"<tr><td>observable</td><td>{html.escape(c.disagree or 'no access differs at this lane')}</td></tr>"
            "</table>"
        )
    rows = []
    for d in sorted(v.discharged, key=lambda d: (d.status.value == "proved", d.condition.key)):
        o = d.condition.origin
        colour = _COLOURS.get(d.status.value, "#000")
        rows.append(
            f"<tr><td style='color:{colour}'>{d.status.value}</td><td>{html.escape(d.prover or '-')}</td>"
            f"<td><code>{html.escape(d.condition.text())}</code></td><td>{html.escape(d.condition.reason.value)}</td>"
            f"<td><code>{html.escape(o.subexpression)}</code></td><td>{html.escape(o.lane_class)}</td></tr>"
        )
    table = (
        "<table class='wb-side-conditions'><tr><th>status</th><th>prover</th><th>claim</th><th>reason</th>"
        "<th>subexpression</th><th>lane class</th></tr>" + "".join(rows) + "</table>"
    )
    return f"<div class='wb-verdict'>{head}<h4>Side conditions ({len(v.discharged)})</h4>{table}</div>"


class SideConditionView(w.VBox):
    """Dropdowns over programs, kernels and the mode; the selected kernel's verdict and side conditions."""

    def __init__(self, data_dir: str | Path | None = None, program: str | None = None, mode: str = "observable",
                 smt: bool = True):
        from workbench.paths import KERNELS

        self.data_dir = Path(data_dir) if data_dir is not None else KERNELS
        self.smt = smt
        programs = sorted(p.name for p in self.data_dir.iterdir() if p.is_dir() and any(p.glob("*.json")))
        if not programs:
            raise FileNotFoundError(f"no captured kernels under {str(self.data_dir)!r}; run `workbench capture NAME`")
        self._kernels: dict[str, CapturedKernel] = {}
        self.verdict = None
        self.program = w.Dropdown(options=programs, value=program or programs[0], description="program")
        self.kernel = w.Dropdown(options=[], description="kernel")
        self.mode = w.ToggleButtons(options=["strict", "observable"], value=mode, description="mode")
        self.body = w.HTML()
        self.program.observe(self._on_program, names="value")
        self.kernel.observe(lambda ch: self._refresh(), names="value")
        self.mode.observe(lambda ch: self._refresh(), names="value")
        super().__init__([w.HBox([self.program, self.kernel, self.mode]), self.body])
        self.add_class("wb-side-condition-view")
        self._on_program({"new": self.program.value})

    def show(self, record: CapturedKernel) -> None:
        """Show a record that is not in the data directory (a variant with changed premises)."""
        self._kernels[record.name] = record
        self._render(record)

    def _on_program(self, change) -> None:
        self._kernels = {k.name: k for k in load_dir(self.data_dir / change["new"])}
        names = sorted(self._kernels)
        self.kernel.options = names
        if self.kernel.value != names[0]:
            self.kernel.value = names[0]
        else:
            self._refresh()

    def _refresh(self) -> None:
        if self.kernel.value is None:
            return
        self._render(self._kernels[self.kernel.value])

    def _render(self, record: CapturedKernel) -> None:
        from workbench.check.api import check_kernel

        self.verdict = check_kernel(record, self.mode.value, smt=self.smt)
        self.body.value = verdict_html(self.verdict)
