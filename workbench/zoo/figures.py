"""One function per zoo figure; each takes the ``zoo.json`` document and writes one PNG at the path given, else
under ``<workspace>/figures`` (the checkout's ``figures/`` only through ``workbench figures --regenerate``).

Stage: zoo (figures). Matplotlib with the Agg backend; computes nothing but counts read from the document.
"""

from __future__ import annotations

from pathlib import Path


# Verdict classes of a kernel in the per-model mix, in stacking order, with their colours.
MIX = (
    ("certified strict", "#1b7837"),
    ("certified observable only", "#7fbf7b"),
    ("refused", "#d6604d"),
    ("out of class", "#bababa"),
    ("check error", "#542788"),
)


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def _mix(model: dict) -> dict[str, int]:
    ks = model["kernels_detail"]
    return {
        "certified strict": sum(k["strict"] == "certified" for k in ks),
        "certified observable only": sum(k["observable"] == "certified" and k["strict"] != "certified" for k in ks),
        "refused": sum(k["observable"] == "refused" for k in ks),
        "out of class": sum(k["observable"] == "out-of-class" for k in ks),
        "check error": sum(k["observable"] == "error" for k in ks),
    }


def verdict_mix(doc: dict, path: str | Path | None = None) -> Path:
    """Stacked bars: per model, how many kernels fall in each verdict class (observable mode, plus strict)."""
    plt = _plt()
    models = [m for m in doc["models"] if not m["error"]]
    fig, ax = plt.subplots(figsize=(9.5, 0.32 * len(models) + 1.6))
    left = [0] * len(models)
    for label, colour in MIX:
        widths = [_mix(m)[label] for m in models]
        ax.barh(range(len(models)), widths, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(models)), [f"{m['model']} ({m['source']})" for m in models], fontsize=7)
    ax.set_xlim(0, max(left, default=0) * 1.05 + 1)  # the longest bar is not clipped by the frame
    ax.invert_yaxis()
    ax.set_xlabel("Triton kernels", fontsize=8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    t = doc["totals"]
    ax.set_title(f"Verdict mix per model: {t['in_class']}/{t['kernels']} kernels in class, "
                 f"{t['observable']} certified (observable)", fontsize=9)
    fig.tight_layout()
    return _save(fig, path or _default("zoo-verdict-mix.png"))


def out_of_class_histogram(doc: dict, path: str | Path | None = None) -> Path:
    """Bars: how many kernels each out-of-class reason accounts for, most frequent first."""
    plt = _plt()
    items = sorted(doc["totals"]["out_of_class"].items(), key=lambda kv: (-kv[1], kv[0]))
    fig, ax = plt.subplots(figsize=(7, 0.35 * max(len(items), 1) + 1.4))
    ax.set_title("Why kernels are out of the checker's class", fontsize=9)
    if not items:  # an empty bar chart reads as a broken one: say what it means
        ax.text(0.5, 0.5, f"none: all {doc['totals']['kernels']} kernels are in class", ha="center", va="center",
                fontsize=9, transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
        fig.tight_layout()
        return _save(fig, path or _default("zoo-out-of-class.png"))
    ax.barh(range(len(items)), [v for _, v in items], color="#878787")
    ax.set_yticks(range(len(items)), [k for k, _ in items], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("Triton kernels", fontsize=8)
    fig.tight_layout()
    return _save(fig, path or _default("zoo-out-of-class.png"))


def _default(name: str) -> Path:
    from workbench.workspace import figures

    return figures() / name


def _save(fig, path: str | Path) -> Path:
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(fig)
    return path
