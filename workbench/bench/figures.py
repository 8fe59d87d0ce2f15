"""One function per timing figure; each takes computed data (never timing itself) and writes one PNG.

Stage: bench (figures). Matplotlib with the Agg backend; titles state what the figure shows and, for dry
runs, that nothing was timed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.bench.stats import Comparison


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def ratio_per_shape(comparisons: Sequence[Comparison], path: str | Path, thresholds: Mapping[str, float] | None = None,
                    title: str = "Paired ratios per shape") -> Path:
    """Median paired ratio wide/narrow with its bootstrap CI, for the sequence and each small shape."""
    return _save(ratio_figure(comparisons, thresholds, title), path)


def ratio_figure(comparisons: Sequence[Comparison], thresholds: Mapping[str, float] | None = None,
                 title: str = "Paired ratios per shape") -> Any:
    """The figure of :func:`ratio_per_shape`, unsaved. The legend sits right of the axes, outside them, so it
    never covers a point (one selected shape leaves a single point, which a legend inside would hide)."""
    plt = _plt()
    rows = []
    for c in comparisons:
        if c.sequence is not None:
            rows.append((f"{c.wide}/{c.narrow}  sequence", c.sequence))
        rows += [(f"{c.wide}/{c.narrow}  {k}", s) for k, s in c.shapes]
    fig, ax = plt.subplots(figsize=(10 if thresholds else 8, 0.35 * len(rows) + 1.5))
    for i, (label, s) in enumerate(rows):
        ax.errorbar([s.median], [i], xerr=[[s.median - s.lo], [s.hi - s.median]], fmt="o", color="C0", capsize=3)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # inverted, half a row of margin around the first and last point
    ax.axvline(1.0, color="k", lw=0.8)
    for i, (name, x) in enumerate(sorted((thresholds or {}).items())):
        ax.axvline(x, color=f"C{3 + i}", ls="--", lw=0.8, label=f"{name} = {x}")
    if thresholds:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.set_xlabel("t_wide / t_narrow: median of paired ratios, 95% bootstrap CI (> 1: narrow faster)", fontsize=8)
    ax.set_title(title, fontsize=7 if "\n" in title else 9)
    fig.tight_layout()
    return fig


def sequence_times(record: Mapping[str, Any], path: str | Path) -> Path:
    """Distribution of whole-sequence times per variant (one point per block)."""
    plt = _plt()
    names = list(record["variants"])
    data = [[b["sequence_ms"] for b in record["blocks"] if b["variant"] == n and b["sequence_ms"] is not None]
            for n in names]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.boxplot(data, showfliers=False)
    ax.set_xticks(range(1, len(names) + 1), names)
    for i, d in enumerate(data, start=1):
        ax.plot([i] * len(d), d, ".", color="C0", alpha=0.5)
    ax.set_ylabel("sequence time per block (ms, CUDA events)")
    ax.set_title(f"Sequence times, {record['environment'][0].get('device', '?')}", fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def telemetry(record: Mapping[str, Any], path: str | Path) -> Path:
    """Power and SM clock over time with measured blocks shaded; an explicit 'no telemetry' panel otherwise."""
    plt = _plt()
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(8, 4.5), sharex=True)
    samples = [s for t in record["telemetry"] for s in t.get("samples", [])]
    if not samples:
        reasons = "; ".join(sorted({t.get("reason", "") for t in record["telemetry"]}))
        a1.text(0.5, 0.5, f"no telemetry in this record\n{reasons}", ha="center", va="center", fontsize=8,
                transform=a1.transAxes)
        a1.set_axis_off()
        a2.set_axis_off()
        return _save(fig, path)
    t0 = min(s["t"] for s in samples)
    for t in record["telemetry"]:
        ss = t.get("samples", [])
        xs = [s["t"] - t0 for s in ss]
        a1.plot(xs, [s.get("power_w") for s in ss], lw=0.8, label=f"process {t['process']}")
        a1.plot(xs, [s.get("power_limit_w") for s in ss], lw=0.6, ls="--", color="k")
        a2.plot(xs, [s.get("sm_clock_mhz") for s in ss], lw=0.8)
    for b in record["blocks"]:
        for ax in (a1, a2):
            ax.axvspan(b["t_start"] - t0, b["t_end"] - t0, color=f"C{list(record['variants']).index(b['variant']) + 2}",
                       alpha=0.08, lw=0)
    a1.set_ylabel("power (W)")
    a1.legend(fontsize=7)
    a2.set_ylabel("SM clock (MHz)")
    a2.set_xlabel("seconds since first sample (shaded: measured blocks, colour per variant)")
    fig.tight_layout()
    return _save(fig, path)


def correctness_grid(record: Mapping[str, Any], path: str | Path) -> Path:
    """Variant x shape: bitwise equal to eager in every process (green) or not (red)."""
    plt = _plt()
    names = list(record["variants"])
    shapes = list(dict.fromkeys(c["shape"] for c in record["correctness"]))
    ok = {(n, s): True for n in names for s in shapes}
    for c in record["correctness"]:
        ok[(c["variant"], c["shape"])] &= bool(c["bitwise_equal"])
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(shapes), 0.5 * len(names) + 1.6))
    grid = [[1.0 if ok[(n, s)] else 0.0 for s in shapes] for n in names]
    ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(range(len(names)), names)
    ax.set_xticks(range(len(shapes)), shapes, rotation=30, ha="right", fontsize=6)
    title = "bitwise equal to eager"
    if not record.get("timing_claims"):
        title += " (dry run, Triton interpreter: nothing timed)"
    ax.set_title(title, fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def _save(fig: Any, path: str | Path) -> Path:
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path
