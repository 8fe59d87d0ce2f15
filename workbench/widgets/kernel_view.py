"""KernelView: a captured kernel's source and IR aligned line for line (the IR written with the source's own
names, ``tmp17`` not ``t14``), its guards de-duplicated with their origin and the ones the certificate uses
marked, and the checker's verdict; dropdowns over programs and their kernels. A second tab shows the machine
code of the wide kernel W, N1 and P (PTX or SASS, as ``bench static`` compiles them) under the source lines
that produced it, 64-bit division sites highlighted and counted (:mod:`workbench.bench.machine`; compiled
when the tab is first shown).

Holds state and renders: the rows come from :mod:`workbench.explain`, the verdict from
:func:`workbench.check.api.check_kernel`. Reads saved records (the shipped ``data/kernels/`` by default, or a
workspace's ``kernels/`` folder), so it needs neither torch nor a GPU.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as w

from workbench.capture.record import CapturedKernel, load_dir

_USE_STYLE = {"used by the certificate": "color:#1a7f37;font-weight:bold", "a premise, not needed": "color:#57606a",
              "not usable by the checker": "color:#9a6700"}


def _e(text) -> str:
    return html.escape(str(text))


# Source and IR cells wrap only at spaces (a signature breaks between parameters, never inside ``ks0``); a
# token longer than its column widens the table and the box scrolls sideways instead of cutting it. The box
# has no height limit: every line of the kernel is shown whole (the notebook scrolls, not the box).
_CELL = "style='white-space:pre-wrap;word-break:normal;overflow-wrap:normal;vertical-align:top;text-align:left'"
_NUM = "class='wb-line' style='color:#57606a;text-align:right;vertical-align:top;white-space:nowrap'"


def aligned_html(rows, mark: int | None = None) -> str:
    """Source and IR rows (``explain.AlignedLine``) as one table, line numbers first; ``mark`` highlights the
    line a refusal cites."""
    body = "".join(
        f"<tr{_marked(r.line, mark)}><td {_NUM}>{r.line}</td>"
        f"<td {_CELL}><code>{_e(r.source)}</code></td><td {_CELL}><code>{_e(r.ir)}</code></td></tr>"
        for r in rows
    )
    return ("<div class='wb-source-box' style='overflow-x:auto'><table class='wb-aligned' style='font-size:11px;"
            "width:100%'><colgroup><col><col style='width:50%'><col style='width:50%'></colgroup>"
            f"<tr><th>line</th><th>Triton source</th><th>kernel IR (source names)</th></tr>{body}</table></div>")


def numbered_html(source: str, mark: int | None = None) -> str:
    """The kernel's source with the line numbers a refusal cites (``line 32`` is the 32nd line shown)."""
    body = "".join(f"<tr{_marked(i, mark)}><td {_NUM}>{i}</td><td {_CELL}><code>{_e(line)}</code></td></tr>"
                   for i, line in enumerate(source.rstrip("\n").splitlines(), start=1))
    return ("<div class='wb-source-box' style='overflow-x:auto'><table class='wb-numbered' style='font-size:11px;"
            f"width:100%'><tr><th>line</th><th>Triton source</th></tr>{body}</table></div>")


def _marked(line: int, mark: int | None) -> str:
    return " class='wb-cited' style='background:#fff8c5'" if mark is not None and line == mark else ""


def guards_html(rows) -> str:
    """Guard rows (``explain.GuardRow``): one per distinct guard; used ones marked with a check."""
    body = "".join(
        f"<tr class='wb-guard{' wb-guard-used' if g.use.value.startswith('used') else ''}'>"
        f"<td>{'&#10003;' if g.use.value.startswith('used') else ''}</td><td><code>{_e(g.text)}</code>"
        f"{f' <small>(&times;{g.count})</small>' if g.count > 1 else ''}</td>"
        f"<td style='{_USE_STYLE[g.use.value]}'>{_e(g.use.value)}{f': {_e(g.detail)}' if g.detail else ''}</td>"
        f"<td><small>{_e(g.origin)}</small></td></tr>"
        for g in rows
    ) or "<tr><td colspan=4><i>no guards</i></td></tr>"
    return ("<table class='wb-guards'><tr><th></th><th>guard</th><th>use</th><th>origin</th></tr>"
            f"{body}</table>")


def facts_html(k: CapturedKernel) -> str:
    rows = "".join(
        f"<tr><td><code>{_e(a.name)}</code></td><td><code>{_e(a.type)}</code></td><td><code>{_e(a.expr)}</code></td></tr>"
        for a in k.size_args
    ) or "<tr><td colspan=3><i>no size arguments</i></td></tr>"
    numels = "".join(
        f"<tr><td><code>{_e(n.name)}</code></td><td><code>{_e(n.type or 'constant')}</code></td>"
        f"<td><code>{_e(n.expr)}</code></td></tr>"
        for n in k.numels
    )
    syms = "".join(
        f"<li><code>{_e(s.name)}</code> &isin; [{s.lower if s.lower is not None else '-&infin;'}, "
        f"{s.upper if s.upper is not None else '&infin;'}] &larr; {_e(', '.join(s.sources))}</li>"
        for s in k.symbols
    )
    return ("<h4>Size arguments</h4><table><tr><th>arg</th><th>type</th><th>expression</th></tr>"
            f"{rows}{numels}</table><h4>Shape symbols</h4><ul>{syms}</ul>")


def verdict_line_html(v) -> str:
    colour = "#1a7f37" if v.certified else "#cf222e"
    narrow = f"; narrows {', '.join(v.narrowable)} to int32" if v.certified and v.narrowable else ""
    return (f"<div class='wb-kernel-verdict'><b style='color:{colour}'>{_e(v.verdict.upper())}</b> "
            f"[{_e(v.mode)}]{_e(narrow)} &mdash; <small>{_e(v.reason)}</small></div>")


def machine_html(lst, asm: str) -> str:
    """One variant's PTX or SASS (``workbench.bench.machine.Listing``) under the source lines that produced
    it; 64-bit division sites highlighted, counted in the summary line."""
    code = lst.code(asm)
    n = lst.divisions(asm)
    what = "CALL sites into the 64-bit division subroutine" if asm == "sass" else "64-bit div/rem instructions"
    head = (f"<div class='wb-machine-summary'><b>{_e(lst.variant)}</b> ({_e(lst.arch)}, {asm.upper()}): "
            f"{len(code)} instructions, <b style='color:{'#cf222e' if n else '#1a7f37'}'>{n}</b> {what}"
            f"{' (highlighted)' if n else ''}. <small>Compiled as <code>workbench bench static</code> compiles it, "
            "no GPU; static machine code, not timing.</small></div>")
    rows = []
    for line, src, ins in lst.by_line(asm):
        lines = "".join(
            f"<div class='wb-div64' style='background:#ffd7d5'>{_e(i.text)} "
            "<span style='white-space:nowrap'>&#9664; 64-bit division</span></div>"
            if i.division else f"<div>{_e(i.text)}</div>" for i in ins)
        rows.append(f"<tr><td {_NUM}>{line or ''}</td><td {_CELL}><code>{_e(src)}</code></td>"
                    f"<td {_NUM}>{len(ins) or ''}</td><td {_CELL}><code>{lines}</code></td></tr>")
    return (head + "<div class='wb-source-box wb-machine' style='overflow-x:auto'><table style='font-size:11px;"
            "width:100%'><colgroup><col><col style='width:45%'><col><col style='width:55%'></colgroup>"
            f"<tr><th>line</th><th>source ({_e(lst.variant)})</th><th>n</th><th>{asm.upper()}</th></tr>"
            f"{''.join(rows)}</table></div>")


class KernelView(w.VBox):
    """Dropdowns over programs and kernels; the selected kernel's verdict, aligned source/IR, guards, facts."""

    def __init__(self, data_dir: str | Path | None = None, program: str | None = None, show_ir: bool = True,
                 mode: str = "observable"):
        from workbench.paths import KERNELS

        self.data_dir = Path(data_dir) if data_dir is not None else KERNELS
        self.show_ir = show_ir
        self.mode = mode
        programs = sorted(p.name for p in self.data_dir.iterdir() if p.is_dir() and any(p.glob("*.json")))
        if not programs:
            raise FileNotFoundError(
                f"no captured kernels under {str(self.data_dir)!r}; run `workbench capture NAME` first"
            )
        self._kernels: dict[str, CapturedKernel] = {}
        self.verdict = None
        self.program = w.Dropdown(options=programs, value=program or programs[0], description="program",
                                  layout=w.Layout(width="max-content"))
        # as wide as the longest kernel name (the default 300 px cut Inductor's names); the row wraps instead
        self.kernel = w.Dropdown(options=[], description="kernel", layout=w.Layout(width="max-content"))
        self.header = w.HTML()
        self.source = w.HTML(layout=w.Layout(width="100%", overflow="auto"))
        self.ir = self.source  # one aligned table holds both (kept for callers that read .ir)
        self.guards = w.HTML()
        self.facts = w.HTML()
        # the machine code tab: W, N1 and P's PTX/SASS, compiled when the tab is first shown (seconds)
        self.variant = w.ToggleButtons(options=["W", "N1", "P"], value="W", description="variant")
        self.asm = w.ToggleButtons(options=[("SASS", "sass"), ("PTX", "ptx")], value="sass", description="code")
        self.machine = w.HTML()
        self.listings: dict[tuple[str, str], object] = {}  # (kernel, variant) -> Listing, or the refusal text
        self.tabs = w.Tab(children=[w.VBox([self.source, self.guards, self.facts]),
                                    w.VBox([w.HBox([self.variant, self.asm], layout=w.Layout(flex_flow="row wrap")),
                                            self.machine])])
        self.tabs.set_title(0, "source / IR")
        self.tabs.set_title(1, "PTX / SASS")
        self.tabs.observe(lambda _ch: self._show_machine(), names="selected_index")
        self.variant.observe(lambda _ch: self._show_machine(), names="value")
        self.asm.observe(lambda _ch: self._show_machine(), names="value")
        self.program.observe(self._on_program, names="value")
        self.kernel.observe(self._on_kernel, names="value")
        super().__init__([w.HBox([self.program, self.kernel], layout=w.Layout(flex_flow="row wrap")), self.header,
                          self.tabs])
        self.add_class("wb-kernel-view")
        self.add_class("wb-widget")
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
        from workbench import explain
        from workbench.capture.show import kernel_id
        from workbench.check.api import check_kernel
        from workbench.errors import WorkbenchError

        if change["new"] is None:
            return
        k = self._kernels[change["new"]]
        self.verdict = check_kernel(k, self.mode, counterexample=False)
        self.header.value = (f"<b>{_e(k.name)}</b> <small>id {_e(kernel_id(k))}</small> &mdash; {_e(k.grid_type)}, "
                             f"index dtype <code>{_e(k.index_dtype)}</code>, {_e(k.device)}"
                             + verdict_line_html(self.verdict))
        if self.show_ir:
            try:
                self.source.value = aligned_html(explain.aligned(k))
            except WorkbenchError as exc:
                line = getattr(exc, "line", None)
                self.source.value = (f"<p class='wb-refused'><b>IR refused</b>: {_e(exc)}"
                                     + (f" <small>(line {line} highlighted below)</small>" if line else "") + "</p>"
                                     + numbered_html(k.jit_source, line))
        else:
            self.source.value = numbered_html(k.jit_source)
        cert = self.verdict.certificate if self.verdict.certified else None
        self.guards.value = "<h4>Guards</h4>" + guards_html(explain.guards(k, cert))
        self.facts.value = facts_html(k)
        self._show_machine()

    def listing(self, variant: str | None = None):
        """The selected kernel's listing of ``variant`` (default: the chosen one), compiled once through
        :func:`workbench.bench.machine.listing` (cached in the workspace's ``asm/``); a refusal is kept as
        its one-line reason."""
        from workbench.bench import machine
        from workbench.errors import WorkbenchError
        from workbench.workspace import subdir

        key = (self.kernel.value, variant or self.variant.value)
        if key not in self.listings:
            try:
                self.listings[key] = machine.listing(self.selected, key[1], cache_dir=subdir("asm"))
            except WorkbenchError as exc:
                self.listings[key] = str(exc)
        return self.listings[key]

    def _show_machine(self) -> None:
        if self.tabs.selected_index != 1 or self.kernel.value is None:
            return
        key = (self.kernel.value, self.variant.value)
        if key not in self.listings:
            self.machine.value = (f"<div class='busy'>compiling {_e(key[1])} of {_e(key[0])} for sm_89 as "
                                  "<code>workbench bench static</code> does (a few seconds, no GPU)&hellip;</div>")
        lst = self.listing()
        self.machine.value = (f"<p class='wb-refused'>{_e(lst)}</p>" if isinstance(lst, str)
                              else machine_html(lst, self.asm.value))
