"""Layout facts of the widgets that can be checked without a browser (issue 27); the browser test
(tests/browser) checks the rest (no text clipped in a widget's boxes, no word broken across lines).

* TimingPlot's legend never covers a point, also when one shape is selected (the legend sat on the only point);
* KernelView's source never breaks inside a name (``ks 0``) and has no height limit that cuts a line; an
  out-of-class kernel's source is shown with the line numbers its reason cites, the cited line marked;
* every shipped kernel opens in KernelView's aligned view (Inductor's device_assert included).
"""

from __future__ import annotations

import pytest

from workbench.paths import DATA, KERNELS


def _points(ax):
    """Display coordinates of every drawn data vertex (errorbar markers, bars and caps), excluding the
    vertical threshold lines the legend labels."""
    import numpy as np

    pts = []
    for line in ax.lines:
        if line.get_label().startswith(("per-shape", "median", "CI")):
            continue
        xy = np.column_stack(line.get_data())
        if xy.size:
            pts.append(ax.transData.transform(xy.astype(float)))
    for coll in ax.collections:
        for seg in coll.get_segments():
            pts.append(ax.transData.transform(seg))
    return np.concatenate(pts)


@pytest.mark.parametrize("shapes", [1, 2, None])
def test_timing_plot_legend_covers_no_point(shapes):
    from workbench.bench import figures
    from workbench.widgets.timing_plot import TimingPlot

    view = TimingPlot([DATA / "runs" / "report1-l4-confirm.json"])
    if shapes is not None:
        view.shapes.value = tuple(view.shapes.options[1:1 + shapes])
    c = view.comparison()
    _, plan = view._runs[view.record.value]
    d = plan.decision
    fig = figures.ratio_figure([c], {"per-shape CI floor": d.per_shape_ci_lower_at_least,
                                     "median needed": d.median_at_least, "CI lower bound needed": d.ci_lower_at_least})
    fig.canvas.draw()
    ax = fig.axes[0]
    box = ax.get_legend().get_window_extent()
    pts = _points(ax)
    inside = [(x, y) for x, y in pts if box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1]
    assert not inside, f"the legend covers {len(inside)} data vertices"
    figbox = fig.bbox
    assert box.x1 <= figbox.x1 and box.y0 >= figbox.y0, "the legend is cut off by the figure's edge"


def test_kernel_view_source_wraps_between_names_and_shows_every_line():
    from workbench.widgets.kernel_view import KernelView

    view = KernelView(program="nested_cat_add")
    html = view.source.value
    assert "break-all" not in html and "max-height" not in html
    assert "word-break:normal" in html and "overflow-wrap:normal" in html
    assert html.count("<tr") == 1 + len(view.selected.jit_source.rstrip("\n").splitlines())


def test_kernel_view_refusal_cites_a_line_that_is_shown_and_marked():
    import re

    from workbench.widgets.kernel_view import KernelView

    view = KernelView(program="upsample_nearest")
    html = view.source.value
    cited = int(re.search(r"line (\d+)", view.header.value).group(1))
    assert "IR refused" in html and f"line {cited} highlighted" in html
    marked = re.search(r"<tr class='wb-cited'[^>]*><td[^>]*>(\d+)</td>", html)
    assert marked and int(marked.group(1)) == cited
    assert html.count("<tr") == 1 + len(view.selected.jit_source.rstrip("\n").splitlines())


def test_every_shipped_kernel_opens_in_the_aligned_view():
    from workbench import explain
    from workbench.capture.record import load_dir
    from workbench.errors import WorkbenchError

    opened = refused = 0
    for folder in sorted(p for p in KERNELS.iterdir() if p.is_dir()):
        for k in load_dir(folder):
            try:
                explain.aligned(k)
                opened += 1
            except WorkbenchError:  # refused by name (out of class): shown with numbered source
                refused += 1
    assert opened > 60 and refused <= 2


def test_kernel_view_machine_code_tab_highlights_and_counts_64bit_divisions(tmp_path, monkeypatch):
    """Issue 27: a tab with W, N1 and P's machine code by source line; compiled only when the tab is shown."""
    from workbench.bench import static

    try:
        static.tool("nvdisasm")
    except Exception as exc:
        pytest.skip(f"no nvdisasm in the triton wheel: {exc}")
    from workbench.widgets.kernel_view import KernelView

    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "ws"))
    view = KernelView(program="nested_cat_add")
    assert view.machine.value == "" and not view.listings  # nothing compiled while the tab is hidden
    view.tabs.selected_index = 1
    html = view.machine.value
    assert "<b>W</b> (sm_89, SASS)" in html and html.count("class='wb-div64'") == 16
    assert "<b style='color:#cf222e'>16</b> CALL sites into the 64-bit division subroutine" in html
    view.asm.value = "ptx"
    assert view.machine.value.count("class='wb-div64'") == 16 and "64-bit div/rem instructions" in view.machine.value
    view.variant.value = "N1"
    assert "class='wb-div64'" not in view.machine.value and "<b>N1</b> (sm_89, PTX)" in view.machine.value
    assert "break-all" not in view.machine.value
