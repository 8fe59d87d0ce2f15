"""FlagsView: one kernel's verdict under nvcc's common flag sets, as a table (stage: widgets).

Holds the rows of ``workbench.floats.ptx.flags.flags_table`` (one per flag set: status, mismatch count,
witness) and renders them; it computes nothing. ``FlagsView.for_kernel(spec, kernel)`` reads the committed
table ``data/floats/flags.json`` when it has the kernel (no nvcc needed, instant) and otherwise runs the
experiment through an injected ``runner`` (default: the PTX level, which needs nvcc); the "recompute"
button always runs it. ``exhaustive=False`` makes the default runner split cases instead of sweeping 2**32
inputs per flag set (seconds instead of minutes; notebook 03 uses it).

What it shows about itself: where the rows came from (committed table, computed, computed by case split);
a busy line while the runner works (the button disabled); why the button is disabled when nvcc is missing;
a runner's error as one line instead of a traceback.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Callable

import ipywidgets as W

from workbench.errors import WorkbenchError
from workbench.paths import DATA

TABLE = DATA / "floats/flags.json"  # through the package: the notebooks run from notebooks/
_COLOUR = {"equivalent": "#1a7f37", "not equivalent": "#cf222e", "no counterexample": "#9a6700",
           "undecided": "#6e7781", "not elementwise": "#cf222e", "refused": "#6e7781"}


def rows_html(rows: list[dict]) -> str:
    head = "<tr><th>nvcc flags</th><th>verdict</th><th>mismatches</th><th>witness (input: kernel vs spec)</th></tr>"
    body = []
    for r in rows:
        colour = _COLOUR.get(r["status"], "#000")
        count = "all 2**32 checked: 0" if r["status"] == "equivalent" and r.get("exhaustive") else (
            f"{r['mismatches']:,} of 2**32" if r.get("mismatches") is not None else "&mdash;")
        w = r.get("witness")
        wtext = html.escape(w["text"]) if w else html.escape(", ".join(r.get("undecided", [])) or "")
        safety = "" if r.get("safe", True) else " <b style='color:#cf222e'>(unsafe)</b>"
        # a flag set and a verdict never wrap (the browser broke "-use_fast_math" after its hyphen)
        body.append(f"<tr><td style='white-space:nowrap'><code>{html.escape(r['flags'])}</code></td>"
                    f"<td style='color:{colour};font-weight:bold;white-space:nowrap'>{html.escape(r['status'])}{safety}"
                    f"</td><td style='white-space:nowrap'>{count}</td><td>{wtext}</td></tr>")
    return f"<table class='flags'>{head}{''.join(body)}</table>"


def committed_rows(kernel_path: str | Path, table: Path = TABLE) -> list[dict] | None:
    """The kernel's rows in the committed table, or None when the table or the kernel is not there."""
    if not Path(table).is_file():
        return None
    doc = json.loads(Path(table).read_text())
    want = Path(kernel_path).as_posix()
    for e in doc.get("kernels", []):
        if e["path"] == want or want.endswith("/" + e["path"]):
            return e["rows"]
    return None


class FlagsView(W.VBox):
    """Title, the flag table, and a button that re-runs the experiment through ``runner``."""

    def __init__(self, title: str, rows: list[dict] | None = None, runner: Callable[[], list[dict]] | None = None,
                 source: str = "", *, computed: str = "computed", unavailable: str = ""):
        self.title = title
        self.rows: list[dict] = rows or []
        self.runner = runner
        self.source = source  # where the rows came from ("committed table" / "computed")
        self.computed = computed  # the source label of a recomputation
        self.unavailable = unavailable  # why the runner cannot run here (e.g. no nvcc); empty when it can
        self.busy = False
        self.error = ""
        self.header = W.HTML()
        self.table = W.HTML()
        self.status = W.HTML()
        self.run = W.Button(description="recompute")
        self.run.on_click(lambda _b: self.recompute())
        super().__init__([self.header, self.table, W.HBox([self.run, self.status])])
        self.render()

    def render(self) -> None:
        src = f" <i>({html.escape(self.source)})</i>" if self.source else ""
        self.header.value = f"<b>{html.escape(self.title)}</b>{src}"
        self.table.value = rows_html(self.rows) if self.rows else "<i>not run yet</i>"
        self.run.disabled = self.runner is None or self.busy or bool(self.unavailable)
        if self.busy:
            self.status.value = f"<span class='busy'>recomputing ... ({html.escape(self.computed)})</span>"
        elif self.error:
            self.status.value = f"<span class='error' style='color:#cf222e'>{html.escape(self.error)}</span>"
        elif self.unavailable:
            self.status.value = f"<i class='unavailable'>{html.escape(self.unavailable)}</i>"
        else:
            self.status.value = ""

    def show(self, rows: list[dict], source: str = "computed") -> None:
        self.rows, self.source = rows, source
        self.render()

    def recompute(self) -> None:
        if self.runner is None or self.busy or self.unavailable:
            return
        self.busy, self.error = True, ""
        self.render()
        try:
            rows = self.runner()
        except WorkbenchError as e:  # nvcc failed or refused the kernel: one line, the shown rows kept
            self.error = f"recompute failed: {e}"
            return
        finally:
            self.busy = False
            self.render()
        self.show(rows, self.computed)

    @classmethod
    def for_kernel(cls, spec_path: str | Path, kernel_path: str | Path, arch: str = "sm_89", *,
                   table: Path = TABLE, runner: Callable[[], list[dict]] | None = None, workers: int = 2,
                   exhaustive: bool = True) -> "FlagsView":
        computed = "computed" if exhaustive else "computed by case split, no 2**32 sweep"
        unavailable = ""
        if runner is None:
            from workbench.floats.ptx.nvcc import find_nvcc

            try:
                find_nvcc()
            except WorkbenchError as e:
                unavailable = f"recompute needs nvcc: {e}"

            def runner() -> list[dict]:
                from workbench.floats.ptx.flags import flags_table

                return flags_table(spec_path, kernel_path, arch, workers=workers, exhaustive=exhaustive)

        title = f"{kernel_path} against {spec_path} (PTX level, {arch})"
        rows = committed_rows(kernel_path, table)
        if rows is not None:
            return cls(title, rows, runner, source=f"committed table {Path(table).as_posix()}", computed=computed,
                       unavailable=unavailable)
        view = cls(title, None, runner, computed=computed, unavailable=unavailable)
        view.recompute()
        return view
