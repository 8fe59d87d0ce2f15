"""SpecView: a PyTorch spec and a CUDA kernel side by side, with the verdict and the witness (stage: widgets).

The widget holds state (the two sources, a verdict dictionary from ``Verdict.as_dict()``) and renders
HTML; it computes nothing. ``SpecView.from_files`` and the target toggles call the package
(``workbench.floats``) through an injected ``checker`` so the widget logic is testable without a browser or
a 2**32 sweep.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

import ipywidgets as W

_STATUS_COLOUR = {"equivalent": "#1a7f37", "not equivalent": "#cf222e", "no counterexample": "#9a6700",
                  "undecided": "#6e7781", "not elementwise": "#cf222e"}


def _code(title: str, text: str, mark_lines: tuple[int, ...] = ()) -> str:
    rows = []
    for i, line in enumerate(text.splitlines(), start=1):
        style = " style='background:#fff8c5'" if i in mark_lines else ""
        rows.append(f"<span{style}>{i:3d}  {html.escape(line)}</span>")
    return (f"<div style='flex:1;min-width:0'><b>{html.escape(title)}</b><pre style='font-size:12px;"
            f"overflow:auto'>{chr(10).join(rows)}</pre></div>")


def verdict_html(verdict: dict) -> str:
    """The verdict block: status, summary, witnesses (input bits, kernel and spec output bits), safety."""
    colour = _STATUS_COLOUR.get(verdict.get("status", ""), "#000")
    parts = [f"<div><b>target</b> {html.escape(verdict.get('target', ''))} &nbsp; <b>NaN policy</b> "
             f"{html.escape(verdict.get('nan', ''))}</div>",
             f"<div style='color:{colour};font-weight:bold'>{html.escape(verdict.get('summary', ''))}</div>"]
    ws = verdict.get("witnesses", [])
    if ws:
        head = "<tr><th>input bits</th><th>kernel</th><th>spec</th><th>reading</th></tr>"
        rows = "".join(f"<tr><td><code>{', '.join(w['inputs'])}</code></td><td><code>{w['kernel']}</code></td>"
                       f"<td><code>{w['spec']}</code></td><td>{html.escape(w['text'])}</td></tr>" for w in ws[:8])
        parts.append(f"<table class='witness'>{head}{rows}</table>")
    safety = verdict.get("safety", {})
    if safety:
        colour = "#1a7f37" if safety.get("safe") else "#cf222e"
        parts.append(f"<div style='color:{colour}'><b>safety gate</b> {html.escape(safety.get('summary', ''))}</div>")
    return "".join(parts)


class SpecView(W.VBox):
    """Spec source | kernel source, then the verdict. ``show(verdict_dict)`` updates the view."""

    def __init__(self, spec_source: str, kernel_source: str, verdict: dict | None = None,
                 checker: Callable[[bool, bool, str], dict] | None = None, spec_title: str = "PyTorch spec",
                 kernel_title: str = "CUDA kernel"):
        self.spec_source = spec_source
        self.kernel_source = kernel_source
        self.spec_title = spec_title
        self.kernel_title = kernel_title
        self.verdict: dict = verdict or {}
        self.checker = checker
        self.sources = W.HTML()
        self.result = W.HTML()
        self.fma = W.ToggleButton(value=True, description="FMA contraction")
        self.ftz = W.ToggleButton(value=False, description="flush to zero")
        self.nan = W.Dropdown(options=["any", "payload"], value="any", description="NaN policy")
        self.run = W.Button(description="check", disabled=checker is None)
        self.run.on_click(lambda _b: self.recheck())
        super().__init__([self.sources, W.HBox([self.fma, self.ftz, self.nan, self.run]), self.result])
        self.render()

    def witness_lines(self) -> tuple[int, ...]:
        """Kernel lines whose stores compute the function the first witness refutes (from the verdict)."""
        return tuple(self.verdict.get("lines", ()))

    def render(self) -> None:
        self.sources.value = ("<div style='display:flex;gap:12px'>" + _code(self.spec_title, self.spec_source)
                              + _code(self.kernel_title, self.kernel_source, self.witness_lines()) + "</div>")
        self.result.value = verdict_html(self.verdict) if self.verdict else "<i>not checked yet</i>"

    def show(self, verdict: dict) -> None:
        self.verdict = verdict
        self.render()

    def recheck(self) -> None:
        if self.checker is None:
            return
        self.show(self.checker(self.fma.value, self.ftz.value, self.nan.value))

    @classmethod
    def from_files(cls, spec_path: str | Path, kernel_path: str | Path, exhaustive: bool = True,
                   workers: int = 2) -> "SpecView":
        """Build the view and its checker from files; the checker calls ``workbench.floats.check``."""
        from workbench.floats.check import Target, check
        from workbench.floats.cuda import parse_kernel
        from workbench.floats.gate import gate
        from workbench.floats.spec import capture_spec

        spec = capture_spec(spec_path)
        kernel = parse_kernel(kernel_path)
        safety = gate(kernel)

        def checker(fma: bool, ftz: bool, nan: str) -> dict:
            v = check(spec, kernel, Target(fma=fma, ftz=ftz), nan, exhaustive=exhaustive, workers=workers,
                      progress=False, safety=safety)
            return v.as_dict()

        view = cls(Path(spec_path).read_text(), kernel.source, checker=checker,
                   spec_title=str(spec_path), kernel_title=str(kernel_path))
        view.recheck()
        return view
