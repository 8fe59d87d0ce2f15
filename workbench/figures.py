"""One function per report figure, each writing one PNG into a folder given, else ``<workspace>/figures``.

The checkout's ``figures/`` is written only on purpose: ``workbench figures --regenerate`` (``make figures``).

Stage: figures. Every function takes computed data (run records, statistics, static counts), never measures
anything itself, and labels what the figure is: report 1's L4 data measured by the report's authors (with the
source repository, path and commit), or static machine-code counts that are not timings.

* :func:`triple_ratios` — per-triple paired ratios with the median and its bootstrap CI, for each comparison;
* :func:`shape_times` — per-shape time per call by variant (sequence and small shapes), median over blocks;
* :func:`block_telemetry` — SM clock and power per variant, one point per block, with the power cap;
* :func:`static_change` — SASS instructions and 64-bit division CALL sites, wide vs narrowed, per kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any



def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def _folder(out: Path | None) -> Path:
    """The folder given, else the workspace's ``figures/``: drawing a figure never writes into the checkout
    unless the caller names its ``figures/`` (``workbench figures --regenerate``)."""
    if out is not None:
        return Path(out)
    from workbench.workspace import figures

    return figures()


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def source_label(record: Mapping[str, Any]) -> str:
    """'report 1's L4 data, measured by the report's authors (repo path @commit)' for an imported record;
    the device and mode for the workbench's own."""
    prov = record.get("provenance")
    if prov:
        return (f"{prov['label']}\nsource: {prov['repository']} {prov['path']} @ {prov['commit'][:12]}")
    return f"workbench run, {record.get('mode')}, {record['environment'][0].get('device')}"


def triple_ratios(record: Mapping[str, Any], pairs: Sequence[tuple[str, str]], out: Path | None = None,
                  resamples: int = 10_000, seed: int = 0) -> Path:
    """Each paired ratio wide/narrow over the sequence (one dot per triple, coloured by process), with the
    median and its percentile-bootstrap 95% CI."""
    from workbench.bench import stats

    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 1.1 * len(pairs) + 1.8))
    for i, (w, n) in enumerate(pairs):
        es = stats.paired(record, w, n, "sequence")
        for e in es:
            ax.plot(e["ratio"], i + 0.12 * (e["process"] - 0.5), "o", ms=4, alpha=0.6, color=f"C{e['process']}")
        s = stats.summarize([e["ratio"] for e in es], resamples, 0.95, seed)
        ax.errorbar([s.median], [i], xerr=[[s.median - s.lo], [s.hi - s.median]], fmt="D", color="k", capsize=5,
                    ms=6, zorder=5)
        ax.annotate(f"median {s.median:.3f} (95% CI {s.lo:.3f}–{s.hi:.3f}), n={s.n}", (s.median, i + 0.32),
                    fontsize=7, ha="center")
    ax.set_yticks(range(len(pairs)), [f"T({w}) / T({n})" for w, n in pairs])
    ax.set_ylim(-0.6, len(pairs) - 0.3)
    ax.axvline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("paired ratio per triple over the 14-shape sequence (> 1: the second variant is faster); "
                  "dot colour = process", fontsize=8)
    ax.set_title(source_label(record), fontsize=7)
    fig.tight_layout()
    return _save(fig, _folder(out) / "report1-l4-triple-ratios.png")


def shape_times(record: Mapping[str, Any], out: Path | None = None) -> Path:
    """Microseconds per call at each shape, by variant: median over blocks, whiskers min–max."""
    import numpy as np

    plt = _plt()
    names = list(record["variants"])
    seq_keys = list(record["blocks"][0].get("sequence_per_call_us", {}))
    small_keys = list(record["blocks"][0].get("small_per_call_us", {}))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=False)
    for ax, keys, field, title in ((axes[0], seq_keys, "sequence_per_call_us", "14-shape sequence (20 calls/shape)"),
                                   (axes[1], small_keys, "small_per_call_us", "small shapes (50 calls/shape)")):
        x = np.arange(len(keys))
        for j, n in enumerate(names):
            vals = np.array([[b[field][k] for k in keys] for b in record["blocks"] if b["variant"] == n])
            med = np.median(vals, axis=0)
            ax.errorbar(x + 0.25 * (j - 1), med, yerr=[med - vals.min(axis=0), vals.max(axis=0) - med], fmt="o",
                        ms=3, capsize=2, label=n, color=f"C{j}")
        ax.set_xticks(x, keys, rotation=45, ha="right", fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("µs per call (median over blocks; whiskers min–max)", fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(source_label(record), fontsize=7)
    fig.tight_layout()
    return _save(fig, _folder(out) / "report1-l4-shape-times.png")


def block_telemetry(record: Mapping[str, Any], out: Path | None = None) -> Path:
    """Median SM clock and median power of every block, by variant; the enforced power limit as a line and
    the share of samples under the software power cap in the legend."""
    plt = _plt()
    names = list(record["variants"])
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    limit = None
    for t in record["telemetry"]:
        st = t.get("static") or {}
        if st.get("enforced_power_limit_mw"):
            limit = st["enforced_power_limit_mw"] / 1000
    for j, n in enumerate(names):
        ts = [b["telemetry_summary"] for b in record["blocks"] if b["variant"] == n and b.get("telemetry_summary")]
        cap = sum(t["reason_fraction"]["sw_power_cap"] for t in ts) / max(1, len(ts))
        xs = [j + 0.25 * ((i % 7) / 6 - 0.5) for i in range(len(ts))]
        a1.plot(xs, [t["sm_median"] for t in ts], "o", ms=4, alpha=0.7, color=f"C{j}")
        a2.plot(xs, [t["power_w_median"] for t in ts], "o", ms=4, alpha=0.7, color=f"C{j}",
                label=f"{n}: {100 * cap:.0f}% of samples at SW power cap")
        if ts:
            import statistics

            m = statistics.median(t["sm_median"] for t in ts)
            a1.hlines(m, j - 0.3, j + 0.3, color="k", lw=1)
            a1.annotate(f"{m:.0f} MHz", (j, m), xytext=(0, 6), textcoords="offset points", ha="center", fontsize=7)
    for ax in (a1, a2):
        ax.set_xticks(range(len(names)), names)
    if limit:
        a2.axhline(limit, color="r", ls="--", lw=0.8, label=f"enforced power limit {limit:.0f} W")
    a1.set_ylabel("SM clock, median per block (MHz)")
    a2.set_ylabel("power, median per block (W)")
    a2.legend(fontsize=7, loc="lower right")
    fig.suptitle(source_label(record), fontsize=7)
    fig.tight_layout()
    return _save(fig, _folder(out) / "report1-l4-telemetry.png")


def static_change(rows: Sequence[Any], arch: str = "sm_89", out: Path | None = None,
                  name: str = "static-narrowing.png") -> Path:
    """Per certified kernel at ``arch``: SASS instructions of N1 and of P (only ``//`` and ``%`` in int32,
    where certified) relative to the wide kernel, and 64-bit division CALL sites (B0, P, N1). Static machine
    code, not timing."""
    from workbench.bench.static import LABEL

    plt = _plt()
    rs = sorted((r for r in rows if r.arch == arch), key=lambda r: r.change("sass_instructions") or 0.0)
    # 0.36 in per kernel and 8 pt labels: 63 names stay readable at the PNG's 110 dpi; constrained layout keeps
    # the two-line title above the frame (tight_layout ignores a suptitle and let it overlap the axes)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 0.36 * len(rs) + 2.2), sharey=True, layout="constrained")
    y = list(range(len(rs)))
    a1.barh([i + 0.2 for i in y], [100 * (r.change("sass_instructions") or 0.0) for r in rs], height=0.4,
            color="C0", label="narrowed (N1)")
    a1.barh([i - 0.2 for i in y], [100 * (r.change_p("sass_instructions") or 0.0) for r in rs], height=0.4,
            color="C1", label="partial (P)")
    dup = {r.program for r in rs if sum(q.program == r.program for q in rs) > 1}
    a1.set_yticks(y, [f"{r.program} ({r.kernel.rsplit('_', 1)[-1]})" if r.program in dup else r.program
                      for r in rs], fontsize=8)
    a1.set_ylim(-0.7, len(rs) - 0.3)
    for ax in (a1, a2):  # ticks on top as well: the figure is tall
        ax.tick_params(axis="x", top=True, labeltop=True, labelsize=8)
        ax.grid(axis="y", color="#eeeeee", lw=0.6)
        ax.set_axisbelow(True)
    a1.axvspan(-62, -21, color="C2", alpha=0.12, label="report 2: 21–62% smaller")
    a1.set_xlabel("SASS instructions vs wide B0 (%)", fontsize=8)
    a1.legend(fontsize=8, loc="upper left")  # the top rows change least: no bar reaches that corner
    a2.barh([i + 0.27 for i in y], [r.wide.sass_calls for r in rs], height=0.27, color="C3", label="wide (B0)")
    a2.barh(y, [r.partial.sass_calls if r.partial else 0 for r in rs], height=0.27, color="C1", label="partial (P)")
    a2.barh([i - 0.27 for i in y], [r.narrowed.sass_calls for r in rs], height=0.27, color="C2", label="narrowed (N1)")
    left = sum(r.narrowed.sass_calls for r in rs) + sum(r.partial.sass_calls for r in rs if r.partial)
    a2.set_xlabel("CALL sites (64-bit division subroutine)"
                  + ("; P and N1: 0 in every kernel" if left == 0 else f"; P and N1: {left} in all"), fontsize=8)
    a2.legend(fontsize=8, loc="upper right")  # the top rows have no CALL sites
    fig.suptitle(f"{LABEL}\n{len(rs)} certified corpus kernels, {arch}, XBLOCK {rs[0].xblock if rs else '?'}",
                 fontsize=10)
    return _save(fig, _folder(out) / name)
