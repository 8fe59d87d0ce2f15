"""Where the workbench's data and figures live: the repository checkout this package was imported from
(the workbench is installed editable by ``scripts/setup.sh``), whatever the current directory is — notebooks
run from ``notebooks/``, the CLI from anywhere."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
KERNELS = DATA / "kernels"
FIGURES = ROOT / "figures"
LEAN = ROOT / "lean"
# KernelBench level 1, beside the checkout (``../shared/kernelbench/level1``, read-only): the coverage and
# block tables' default, one place.
KERNELBENCH_LEVEL1 = ROOT.parent / "shared" / "kernelbench" / "level1"
