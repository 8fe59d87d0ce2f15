"""Kernel IR speed: parse time per captured kernel (target: median <= 20 ms on the project's 2-core
machines), canonical hash time, and evaluated lanes per second (declared and narrowed modes).

    .venv/bin/python benchmarks/ir.py [--repeat N] [--lanes N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5, help="parses per kernel (median taken)")
    ap.add_argument("--lanes", type=int, default=2000, help="lanes evaluated per kernel and mode")
    args = ap.parse_args()

    from workbench import kir
    from workbench.capture import load
    from workbench.paths import KERNELS

    records = [load(p) for p in sorted(KERNELS.glob("*/*.json"))]
    kir.canonical_hash(kir.parse(records[0]))  # warm imports (sympy)
    parse_ms, hash_ms, rows = [], [], []
    kernels = []
    for ck in records:
        samples = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            k = kir.parse(ck)
            samples.append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        kir.canonical_hash(k)
        hash_ms.append((time.perf_counter() - t) * 1e3)
        med = statistics.median(samples)
        parse_ms.append(med)
        rows.append((ck.program, ck.name, med, len(ck.jit_source.splitlines())))
        kernels.append((ck, k))
    print(f"{'program':<24} {'kernel':<58} {'lines':>5} {'parse ms':>9}")
    for program, name, ms, lines in rows:
        print(f"{program:<24} {name:<58} {lines:>5} {ms:>9.2f}")
    print(f"parse: {len(rows)} kernels, median {statistics.median(parse_ms):.2f} ms, "
          f"max {max(parse_ms):.2f} ms (target median <= 20 ms)")
    print(f"canonical hash: median {statistics.median(hash_ms):.2f} ms, max {max(hash_ms):.2f} ms")

    rng = random.Random(0)
    for mode in (kir.WIDE, kir.NARROW):
        total, seconds = 0, 0.0
        for ck, k in kernels:
            sizes = {s.name: rng.randint(max(2, s.lower or 2), 64) * 2 for s in ck.symbols}
            try:
                ln = kir.launch(k, sizes)
            except kir.EvaluationError:
                continue
            blocks = dict(ln.blocks)
            lanes = [kir.Lane((rng.randrange(ln.grid[0]), 0, 0),
                              tuple((b, rng.randrange(blocks[b])) for b, _ in k.blocks), ln.grid)
                     for _ in range(args.lanes)]
            kir.evaluate(k, ln, lanes[0], mode)  # instantiate once
            t = time.perf_counter()
            for lane in lanes:
                kir.evaluate(k, ln, lane, mode)
            seconds += time.perf_counter() - t
            total += len(lanes)
        print(f"evaluate ({mode.name}): {total} lanes in {seconds:.2f} s = {total / seconds:,.0f} lanes/s")


if __name__ == "__main__":
    main()
