"""KernelView: a captured kernel's Triton source beside its size arguments (type, symbolic expression),
element counts, guards and symbol ranges, with dropdowns over programs and their kernels.

Reads saved records (``data/kernels/<program>/*.json``), so it needs neither torch nor a GPU; programs that
have no saved record are listed and captured on demand when ``capture_missing`` is set.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as w

from workbench.capture.record import CapturedKernel, load_dir


def _facts_html(k: CapturedKernel) -> str:
    rows = "".join(
        f"<tr><td><code>{html.escape(a.name)}</code></td><td><code>{html.escape(a.type)}</code></td>"
        f"<td><code>{html.escape(a.expr)}</code></td></tr>"
        for a in k.size_args
    ) or "<tr><td colspan=3><i>no size arguments</i></td></tr>"
    numels = "".join(
        f"<tr><td><code>{html.escape(n.name)}</code></td><td><code>{html.escape(n.type or 'constant')}</code></td>"
        f"<td><code>{html.escape(n.expr)}</code></td></tr>"
        for n in k.numels
    )
    syms = "".join(
        f"<li><code>{html.escape(s.name)}</code> &isin; [{s.lower if s.lower is not None else '-&infin;'}, "
        f"{s.upper if s.upper is not None else '&infin;'}] &larr; {html.escape(', '.join(s.sources))}</li>"
        for s in k.symbols
    )
    guards = "".join(f"<li><code>{html.escape(g)}</code></li>" for g in k.guards) or "<li><i>none</i></li>"
    return (
        f"<div class='wb-facts'><b>{html.escape(k.name)}</b> &mdash; {html.escape(k.grid_type)}, "
        f"index dtype <code>{html.escape(k.index_dtype)}</code>, {html.escape(k.device)}"
        "<h4>Size arguments</h4><table><tr><th>arg</th><th>type</th><th>expression</th></tr>"
        f"{rows}{numels}</table><h4>Shape symbols</h4><ul>{syms}</ul>"
        f"<h4>Guards</h4><ul>{guards}</ul></div>"
    )


def _source_html(text: str, css_class: str) -> str:
    return (
        f"<pre class='{css_class}' style='font-size:11px;max-height:480px;max-width:100%;overflow:auto;"
        f"white-space:pre;box-sizing:border-box'>{html.escape(text)}</pre>"
    )


def _ir_text(k: CapturedKernel) -> str:
    """The kernel IR rendered by ``workbench.kir`` (or the refusal reason)."""
    from workbench import kir
    from workbench.errors import WorkbenchError

    try:
        return kir.render(k)
    except WorkbenchError as exc:
        return f"refused: {exc}"


class KernelView(w.VBox):
    """Dropdowns over programs and kernels; the selected kernel's source, IR and facts side by side."""

    def __init__(self, data_dir: str | Path | None = None, program: str | None = None, show_ir: bool = True):
        from workbench.paths import KERNELS

        self.data_dir = Path(data_dir) if data_dir is not None else KERNELS
        self.show_ir = show_ir
        programs = sorted(p.name for p in self.data_dir.iterdir() if p.is_dir() and any(p.glob("*.json")))
        if not programs:
            raise FileNotFoundError(
                f"no captured kernels under {str(self.data_dir)!r}; run `workbench capture NAME` first"
            )
        self._kernels: dict[str, CapturedKernel] = {}
        self.program = w.Dropdown(options=programs, value=program or programs[0], description="program")
        self.kernel = w.Dropdown(options=[], description="kernel")
        self.source = w.HTML(layout=w.Layout(width="50%", overflow="hidden"))
        self.ir = w.HTML(layout=w.Layout(width="50%", overflow="hidden"))
        self.facts = w.HTML()
        self.program.observe(self._on_program, names="value")
        self.kernel.observe(self._on_kernel, names="value")
        panes = [self.source, self.ir] if show_ir else [self.source]
        super().__init__([w.HBox([self.program, self.kernel]), w.HBox(panes), self.facts])
        self.add_class("wb-kernel-view")
        self._on_program({"new": self.program.value})

    @property
    def selected(self) -> CapturedKernel:
        return self._kernels[self.kernel.value]

    def _on_program(self, change) -> None:
        kernels = load_dir(self.data_dir / change["new"])
        self._kernels = {k.name: k for k in kernels}
        names = sorted(self._kernels)
        self.kernel.options = names
        if self.kernel.value != names[0]:
            self.kernel.value = names[0]
        else:
            self._on_kernel({"new": names[0]})

    def _on_kernel(self, change) -> None:
        if change["new"] is None:
            return
        k = self._kernels[change["new"]]
        self.source.value = "<h4>Triton source</h4>" + _source_html(k.jit_source, "wb-source")
        if self.show_ir:
            self.ir.value = "<h4>Kernel IR</h4>" + _source_html(_ir_text(k), "wb-ir")
        self.facts.value = _facts_html(k)
