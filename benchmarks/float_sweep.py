"""Time one exhaustive float32 sweep: the ReLU ternary kernel against torch.relu over all 2**32 inputs.

    .venv/bin/python benchmarks/float_sweep.py [--workers 2]

Prints the wall time of ``workbench.floats.sweep.sweep_unary`` (spec and kernel evaluated on every bit
pattern in 2 processes), the mismatch count (NOTES: 16,777,215 = every NaN plus -0.0) and the target
(<= 60 s on the project's 2 cores). Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from workbench.floats.check import Target
    from workbench.floats.cuda import parse_kernel
    from workbench.floats.gate import element_functions
    from workbench.floats.ir import contract_fma
    from workbench.floats.spec import capture_spec
    from workbench.floats.sweep import sweep_unary

    root = Path(__file__).resolve().parents[1] / "data/floats/corpus/relu"
    spec = capture_spec(root / "spec.py")
    (fn,) = element_functions(parse_kernel(root / "ternary.cu")).functions
    sem = Target().semantics("any")
    t0 = time.perf_counter()
    (res,) = sweep_unary(spec.expr, (contract_fma(fn),), sem, "any", workers=args.workers, progress=False)
    dt = time.perf_counter() - t0
    print(f"full 2**32 unary sweep (relu ternary vs torch.relu): {dt:.1f} s with {args.workers} workers "
          f"on {os.cpu_count()} CPUs; {res.mismatches:,} mismatches; target <= 60 s: "
          f"{'met' if dt <= 60 else 'MISSED'}")


if __name__ == "__main__":
    main()
