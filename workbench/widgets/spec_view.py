"""SpecView: a PyTorch spec and a CUDA kernel side by side, with the verdict and the witness (stage: widgets).

The widget holds state (the two sources, a verdict dictionary from ``Verdict.as_dict()``) and renders
HTML; it computes nothing. ``SpecView.from_files`` and the target toggles call the package
(``workbench.floats``) through an injected ``checker(fma, ftz, nan, spec_device) -> dict`` so the widget
logic is testable without a browser or a 2**32 sweep. ``SpecView.for_pair`` builds that checker from a spec and a
kernel already captured (notebook 03 uses it with ``exhaustive=False``: the case split, under a second).

What it shows about itself: the toggles are disabled while no check can run (no checker, or one running);
a view without a checker says it is read-only; a toggle changed after a check marks the shown result stale
until "check" runs again; a busy line says a check is running (and whether it sweeps all 2**32 inputs or
splits cases); the kernel lines of the stores the first witness refutes are highlighted.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

import ipywidgets as W

_COLOUR = {"equivalent": "#1a7f37", "not-equivalent": "#cf222e", "no-counterexample": "#9a6700",
           "undecided": "#6e7781", "out-of-class": "#cf222e", "unsafe": "#cf222e"}
_LEGACY = {"equivalent": "equivalent", "not equivalent": "not-equivalent", "no counterexample": "no-counterexample",
           "undecided": "undecided", "not elementwise": "out-of-class"}


def _code(title: str, text: str, mark_lines: tuple[int, ...] = ()) -> str:
    rows = []
    for i, line in enumerate(text.splitlines(), start=1):
        mark = " class='witness-line' style='background:#fff8c5'" if i in mark_lines else ""
        rows.append(f"<span{mark}>{i:3d}  {html.escape(line)}</span>")
    # long lines wrap at spaces only (JupyterLab's pre breaks anywhere: "__r|estrict__"), nothing scrolls away
    return (f"<div style='flex:1;min-width:0'><b>{html.escape(title)}</b><pre style='font-size:12px;"
            f"white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto'>{chr(10).join(rows)}"
            "</pre></div>")


def verdict_html(verdict: dict, stale: bool = False) -> str:
    """The verdict block: the one verdict, the semantic summary, witnesses, safety; greyed out when stale."""
    word = verdict.get("verdict") or _LEGACY.get(verdict.get("status", ""), "")
    colour = _COLOUR.get(word, "#000")
    parts = []
    if stale:
        parts.append("<div class='stale' style='color:#9a6700'><b>stale</b>: a toggle changed since this check; "
                     "press check to update</div>")
    parts += [f"<div><b>target</b> {html.escape(verdict.get('target', ''))} &nbsp; <b>NaN policy</b> "
              f"{html.escape(verdict.get('nan', ''))} &nbsp; <b>spec device</b> "
              f"{html.escape(verdict.get('spec_device', ''))}</div>",
              f"<div style='color:{colour};font-weight:bold'>{html.escape(word)}</div>",
              f"<div>{html.escape(verdict.get('summary', ''))}</div>"]
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
    body = "".join(parts)
    return f"<div style='opacity:0.55'>{body}</div>" if stale else body


class SpecView(W.VBox):
    """Spec source | kernel source, then the verdict. ``show(verdict_dict)`` updates the view."""

    def __init__(self, spec_source: str, kernel_source: str, verdict: dict | None = None,
                 checker: Callable[[bool, bool, str, str], dict] | None = None, spec_title: str = "PyTorch spec",
                 kernel_title: str = "CUDA kernel", checking: str = "a unary kernel sweeps all 2**32 inputs"):
        self.spec_source = spec_source
        self.kernel_source = kernel_source
        self.spec_title = spec_title
        self.kernel_title = kernel_title
        self.verdict: dict = verdict or {}
        self.checker = checker
        self.checking = checking  # what a check does, for the busy line
        self.stale = False
        self.busy = False
        self.sources = W.HTML()
        self.result = W.HTML()
        self.status = W.HTML()
        self.fma = W.ToggleButton(value=True, description="FMA contraction")
        self.ftz = W.ToggleButton(value=False, description="flush to zero")
        self.nan = W.Dropdown(options=["any", "payload"], value="any", description="NaN policy")
        self.device = W.Dropdown(options=["cuda", "cpu"], value="cuda", description="spec device")
        self.run = W.Button(description="check")
        self.run.on_click(lambda _b: self.recheck())
        for w in self.toggles:
            w.observe(self._toggled, names="value")
        super().__init__([self.sources, W.HBox([*self.toggles, self.run]), self.status, self.result])
        self.render()

    @property
    def toggles(self) -> tuple:
        return (self.fma, self.ftz, self.nan, self.device)

    def _toggled(self, _change) -> None:
        if self.verdict:
            self.stale = True
            self.render()

    def witness_lines(self) -> tuple[int, ...]:
        """Kernel lines whose stores compute the function the first witness refutes (from the verdict)."""
        if not self.verdict.get("witnesses"):
            return ()
        return tuple(self.verdict.get("lines", ()))

    def render(self) -> None:
        can_run = self.checker is not None and not self.busy
        for w in (*self.toggles, self.run):
            w.disabled = not can_run
        if self.busy:
            self.status.value = f"<span class='busy'>checking ... ({html.escape(self.checking)})</span>"
        elif self.checker is None:
            self.status.value = ("<i class='read-only'>read-only: built from a verdict without a checker "
                                 "(<code>SpecView.for_pair</code> makes the toggles live)</i>")
        else:
            self.status.value = ""
        self.sources.value = ("<div style='display:flex;gap:12px'>" + _code(self.spec_title, self.spec_source)
                              + _code(self.kernel_title, self.kernel_source, self.witness_lines()) + "</div>")
        self.result.value = verdict_html(self.verdict, self.stale) if self.verdict else "<i>not checked yet</i>"

    def show(self, verdict: dict) -> None:
        self.verdict = verdict
        self.stale = False
        self.render()

    def recheck(self) -> None:
        if self.checker is None or self.busy:
            return
        self.busy = True
        self.render()
        try:
            verdict = self.checker(self.fma.value, self.ftz.value, self.nan.value, self.device.value)
        finally:
            self.busy = False
        self.show(verdict)

    @classmethod
    def for_pair(cls, spec, kernel, verdict: dict | None = None, *, exhaustive: bool = False, workers: int = 2,
                 spec_title: str = "PyTorch spec", kernel_title: str = "CUDA kernel") -> "SpecView":
        """The view of a captured ``Spec`` and a parsed ``Kernel`` with a live checker that calls
        ``workbench.floats.check`` (the case split by default: fast; ``exhaustive=True`` sweeps 2**32 inputs
        for a unary kernel). Without ``verdict`` the view checks once under the default toggles."""
        from workbench.floats.check import Target, check
        from workbench.floats.gate import gate

        safety = []  # the safety gate does not depend on the toggles: run it once, on the first check

        def checker(fma: bool, ftz: bool, nan: str, spec_device: str) -> dict:
            if not safety:
                safety.append(gate(kernel))
            v = check(spec.on(spec_device), kernel, Target(fma=fma, ftz=ftz), nan, exhaustive=exhaustive,
                      workers=workers, progress=False, safety=safety[0])
            return v.as_dict()

        checking = ("a unary kernel sweeps all 2**32 inputs" if exhaustive
                    else "case split, no 2**32 sweep")
        view = cls(spec.source, kernel.source, verdict, checker=checker, spec_title=spec_title,
                   kernel_title=kernel_title, checking=checking)
        if verdict is None:
            view.recheck()
        return view

    @classmethod
    def from_files(cls, spec_path: str | Path, kernel_path: str | Path, exhaustive: bool = True,
                   workers: int = 2) -> "SpecView":
        """Build the view and its checker from files; the checker calls ``workbench.floats.check``."""
        from workbench.floats.cuda import parse_kernel
        from workbench.floats.spec import capture_spec

        return cls.for_pair(capture_spec(spec_path), parse_kernel(kernel_path), exhaustive=exhaustive,
                            workers=workers, spec_title=str(spec_path), kernel_title=str(kernel_path))
