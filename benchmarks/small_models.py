"""Counts of the small-width exhaustive models (``workbench.check.exhaustive``) of every reduction and
indirect-indexing kernel the checker certifies: per kernel the width(s) run, the shapes satisfying the scaled
guards, the launches (distinct argument values x block configurations) run of those enumerated, the lane
evaluations (reductions: (x, r) lane at one step; each in both widths), the index values among them, and the
seconds. The kernel list is the model test's (``tests/check/test_small_models.py``: read from data).

    .venv/bin/python benchmarks/small_models.py [--budget N] [--widths 3]   # the test's settings: 100000, 3
    .venv/bin/python benchmarks/small_models.py --budget 0                  # no budget: every launch
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    from workbench.capture import load
    from workbench.check.api import check_kernel
    from workbench.check.exhaustive import model_run

    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=100_000, help="lane evaluations per kernel (0: none)")
    ap.add_argument("--widths", type=int, default=3, help="at most this many widths per kernel, smallest first, until 8 launches ran")
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location("tsm", ROOT / "tests" / "check" / "test_small_models.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    print("| kernel | modes | width | shapes | launches run | lane evaluations | index values | s |")
    print("|---|---|---|---|---|---|---|---|")
    total = 0
    for path in mod.RECORDS:
        rec = load(path)
        modes = tuple(m for m in ("strict", "observable") if check_kernel(rec, m, counterexample=False).certified)
        if not modes:
            continue
        t = time.perf_counter()
        run = model_run(rec, modes, budget=args.budget or 10**12, max_widths=args.widths)
        dt = time.perf_counter() - t
        if run.difference is not None:
            print(f"DIFFERENCE {rec.program}/{rec.name}: {run.difference}")
        for i, w in enumerate(run.widths):
            total += w.lanes
            name = f"{rec.program}/`{rec.name}`" + ("" if run.narrows else " (no size argument)")
            print(f"| {name if i == 0 else ''} | {'/'.join(modes) if i == 0 else ''} | {w.bits} | {w.shapes} | "
                  f"{w.launches_run}/{w.launches} | {w.lanes} | {w.index_values or ''} | "
                  f"{f'{dt:.1f}' if i == 0 else ''} |")
        if not run.widths:
            print(f"| {rec.program}/`{rec.name}` | {'/'.join(modes)} | none: {run.why_not[:120]} | | | | | |")
    print(f"\ntotal lane evaluations: {total}")


if __name__ == "__main__":
    main()
