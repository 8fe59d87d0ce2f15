"""Time the exhaustive unary sweep at the PTX level against the source level, on the same inputs.

    PYTHONPATH=. python benchmarks/floats_ptx_sweep.py [--inputs 2**22] [--rounds 3]

For each kernel: both levels' sweep task functions (``workbench.floats.sweep._run`` and
``workbench.floats.ptx.sweep._run``) on the same 2**22 patterns spread over the range, in one process,
alternating A/B within each round; prints the median seconds per 2**32 inputs (extrapolated) and the ratio.
The issue's bar: PTX <= 2x source. Needs nvcc (the PTX is compiled) and torch (the spec is captured).
"""

from __future__ import annotations

import argparse
import statistics
import time

KERNELS = [("relu", "ternary"), ("scale_shift", "mul_add"), ("hardtanh", "minmax"), ("leaky_relu", "float_literal"),
           ("softsign", "div"), ("abs", "fabsf")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", type=int, default=1 << 22)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="program/kernel names, e.g. relu/ternary")
    a = ap.parse_args()
    from workbench.floats import sweep as src_sweep
    from workbench.floats.check import Target
    from workbench.floats.cuda import parse_kernel
    from workbench.floats.gate import element_functions
    from workbench.floats.ir import contract_fma
    from workbench.floats.ptx import sweep as ptx_sweep
    from workbench.floats.ptx.extract import extract
    from workbench.floats.spec import capture_spec

    tasks = a.inputs // src_sweep.CHUNK
    src_sweep.TASK = ptx_sweep.TASK = src_sweep.CHUNK  # one chunk per task call: same inputs on both sides
    starts = [(i * (1 << 32) // tasks) // src_sweep.CHUNK * src_sweep.CHUNK for i in range(tasks)]
    print(f"{'kernel':<28}{'source s/2**32':>16}{'ptx s/2**32':>14}{'ratio':>8}")
    ratios = []
    for prog, kern in KERNELS:
        if a.only and f"{prog}/{kern}" not in a.only:
            continue
        path = f"data/floats/corpus/{prog}/{kern}.cu"
        spec = capture_spec(f"data/floats/corpus/{prog}/spec.py")
        fns = tuple(contract_fma(f) for f in element_functions(parse_kernel(path)).functions)
        x = extract(path)
        src_sweep._init(spec.expr, fns, Target().semantics("any"), "any")
        ptx_sweep._init(spec.expr, x.functions, "any")
        times = {"src": [], "ptx": []}
        for _ in range(a.rounds):
            for name, run in (("src", src_sweep._run), ("ptx", ptx_sweep._run)):
                t = time.perf_counter()
                for s in starts:
                    run(s)
                times[name].append(time.perf_counter() - t)
        scale = (1 << 32) / a.inputs
        s, p = statistics.median(times["src"]) * scale, statistics.median(times["ptx"]) * scale
        ratios.append(p / s)
        print(f"{prog + '/' + kern:<28}{s:>16.1f}{p:>14.1f}{p / s:>8.2f}")
    print(f"max ratio {max(ratios):.2f} (bar: 2.00)")


if __name__ == "__main__":
    main()
