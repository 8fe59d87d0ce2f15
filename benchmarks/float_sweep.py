"""Time one exhaustive float32 sweep: the ReLU ternary kernel against torch.relu over all 2**32 inputs.

    .venv/bin/python benchmarks/float_sweep.py [--workers 2] [--spec-device cuda|cpu]

Prints the wall time of ``workbench.floats.sweep.sweep_unary`` (spec and kernel evaluated on every bit
pattern in ``--workers`` processes), the mismatch count (cpu spec: 16,777,215 = every NaN plus -0.0, NOTES;
cuda spec: 16,777,214, the NaNs), the workers' user CPU seconds (a figure the machine's load barely changes: on 2 quiet cores the wall time
is about half of it plus ~1 s of process start), the machine's load average before and after (the wall
time is only meaningful on a quiet machine) and the target (<= 10 s on 2 cores). Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from workbench.floats.corpus import CORPUS

TARGET_S = 10.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--spec-device", default="cuda", choices=("cuda", "cpu"))
    args = ap.parse_args()
    from workbench.floats.check import Target
    from workbench.floats.cuda import parse_kernel
    from workbench.floats.gate import element_functions
    from workbench.floats.ir import contract_fma
    from workbench.floats.spec import capture_spec
    from workbench.floats.sweep import sweep_unary

    root = CORPUS / "relu"
    spec = capture_spec(root / "spec.py", args.spec_device)
    (fn,) = element_functions(parse_kernel(root / "ternary.cu")).functions
    sem = Target().semantics("any")
    load0 = os.getloadavg()[0]
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    t0 = time.perf_counter()
    (res,) = sweep_unary(spec.expr, (contract_fma(fn),), sem, "any", workers=args.workers, progress=False)
    dt = time.perf_counter() - t0
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu0  # the workers' user CPU (load-independent)
    load1 = os.getloadavg()[0]
    print(f"full 2**32 unary sweep (relu ternary vs torch.relu on {args.spec_device}): {dt:.1f} s with "
          f"{args.workers} workers on {os.cpu_count()} CPUs ({cpu:.1f} s user CPU in the workers); "
          f"{res.mismatches:,} mismatches; load average "
          f"{load0:.1f} -> {load1:.1f}; target <= {TARGET_S:.0f} s: {'met' if dt <= TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main()
