"""SideConditionView: a kernel's narrowing verdict with its side conditions, grouped by subexpression and
linked to the source line, trivial (constant) rows folded, claims reduced to integer coefficients, the
auxiliary atoms explained, and for a rejection the counterexample with its lane and source line.

Holds state and renders: the verdict comes from :func:`workbench.check.api.check_kernel`, the grouping from
:func:`workbench.explain.side_conditions`. Programs and kernels are read from saved records (the shipped
``data/kernels/`` by default, or a workspace's ``kernels/`` folder).
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as w

from workbench.capture.record import CapturedKernel, load_dir

_COLOURS = {"proved": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700", "conflict": "#cf222e"}


def _e(text) -> str:
    return html.escape(str(text))


def report_html(rep) -> str:
    """Render an :class:`workbench.explain.SideConditionReport` (pure formatting)."""
    colour = "#1a7f37" if rep.verdict == "certified" else "#cf222e"
    out = [f"<div class='wb-verdict'><b style='color:{colour}'>{_e(rep.verdict.upper())}</b> [{_e(rep.mode)}]"
           f"<br><small>{_e(rep.reason)}</small>"]
    if rep.counterexample:
        rows = "".join(f"<tr><td>{_e(k)}</td><td><code>{_e(v)}</code></td></tr>" for k, v in rep.counterexample)
        out.append(f"<h4>Counterexample</h4><table class='wb-counterexample'>{rows}</table>")
    shown = sum(len(r.lane_class.split(" | ")) for g in rep.groups for r in g.rows)
    out.append(f"<h4>Side conditions ({rep.total}: {shown} shown, {rep.trivial} trivial constant claims folded)</h4>")
    for g in rep.groups:
        where = f"line {g.line}: <code>{_e(g.source)}</code>" if g.line else "<i>no source line</i>"
        rows = "".join(
            f"<tr><td style='color:{_COLOURS.get(r.status, '#000')}'>{_e(r.status)}</td><td>{_e(r.prover)}</td>"
            f"<td><code>{_e(r.claim)}</code></td><td>{_e(r.reason)}</td><td><small>{_e(r.lane_class)}</small></td>"
            f"<td><small>{_e(r.facts)}</small></td></tr>"
            for r in g.rows
        )
        folded = f" <small>(+{g.trivial} trivial)</small>" if g.trivial else ""
        body = ("<table class='wb-side-conditions'><tr><th>status</th><th>prover</th><th>claim</th><th>reason</th>"
                f"<th>lane classes</th><th>facts used</th></tr>{rows}</table>") if g.rows else ""
        failed = any(r.status != "proved" for r in g.rows)
        out.append(f"<details class='wb-group' {'open' if failed else ''}><summary><code>{_e(g.subexpression)}"
                   f"</code> &mdash; {where}: {len(g.rows)} condition(s){folded}</summary>{body}</details>")
    if rep.atoms:
        items = "".join(f"<li><code>{_e(a.name)}</code> = <code>{_e(a.stands_for)}</code>: {_e(a.meaning)}</li>"
                        for a in rep.atoms)
        out.append(f"<h4>Auxiliary atoms</h4><ul class='wb-atoms'>{items}</ul>")
    return "".join(out) + "</div>"


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
        self.report = None
        self.program = w.Dropdown(options=programs, value=program or programs[0], description="program",
                                  layout=w.Layout(width="max-content"))
        # as wide as the longest kernel name (the default 300 px cut Inductor's names); the row wraps instead
        self.kernel = w.Dropdown(options=[], description="kernel", layout=w.Layout(width="max-content"))
        self.mode = w.ToggleButtons(options=["strict", "observable"], value=mode, description="mode")
        self.body = w.HTML()
        self.program.observe(self._on_program, names="value")
        self.kernel.observe(lambda ch: self._refresh(), names="value")
        self.mode.observe(lambda ch: self._refresh(), names="value")
        super().__init__([w.HBox([self.program, self.kernel, self.mode], layout=w.Layout(flex_flow="row wrap")), self.body])
        self.add_class("wb-side-condition-view")
        self.add_class("wb-widget")
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
        from workbench.explain import side_conditions

        self.verdict = check_kernel(record, self.mode.value, smt=self.smt)
        self.report = side_conditions(self.verdict, record)
        self.body.value = report_html(self.report)
