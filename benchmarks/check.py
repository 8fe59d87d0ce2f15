"""Benchmark: time to certify one kernel, search included (parse, premises, search, trusted check, discharge).

Prints the median and p90 per kernel (target: median <= 50 ms) and the whole-corpus time, for the observable
mode, with the z3 cross-check on (it only runs on conditions the exact procedure fails) and counterexample
search off. ``kir.canonical_hash`` (the certificate's binding hash, computed by ``workbench.kir``) is timed
separately: it is the IR stage's cost, paid once per kernel body.

    .venv/bin/python benchmarks/check.py [--repeat 3] [--mode observable]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main() -> None:
    from workbench import kir
    from workbench.check import api
    from workbench.check.table import corpus_records

    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mode", default="observable", choices=["strict", "observable"])
    args = ap.parse_args()
    records = corpus_records()
    # Warm imports and the hash memo (so the per-kernel times exclude kir.canonical_hash; timed below).
    hash_times = []
    parsed = {}
    for r in records:
        t = time.perf_counter()
        k = kir.parse(r)
        api.ir_hash(k)
        hash_times.append(time.perf_counter() - t)
        parsed[id(r)] = k
    orig_parse = kir.parse
    kir.parse = lambda rec, *a, **kw: parsed.get(id(rec)) or orig_parse(rec, *a, **kw)  # reuse hashed kernels
    try:
        samples = {r.program + "/" + r.name: [] for r in records}
        t_all = time.perf_counter()
        for _ in range(args.repeat):
            api.clear_caches()  # cold: no memoised multipliers or z3 results from the previous round
            for r in records:
                t = time.perf_counter()
                api.check_kernel(r, args.mode, counterexample=False)
                samples[r.program + "/" + r.name].append(time.perf_counter() - t)
        corpus = (time.perf_counter() - t_all) / args.repeat
    finally:
        kir.parse = orig_parse
    per_kernel = np.array([statistics.median(v) for v in samples.values()]) * 1e3
    print(f"kernels: {len(records)}  mode: {args.mode}  repeats: {args.repeat}")
    print(f"certify one kernel (search + check): median {np.median(per_kernel):.1f} ms, "
          f"p90 {np.percentile(per_kernel, 90):.1f} ms, max {per_kernel.max():.1f} ms  (target median <= 50 ms)")
    print(f"whole corpus: {corpus:.2f} s")
    slow = sorted(samples.items(), key=lambda kv: -statistics.median(kv[1]))[:3]
    print("slowest: " + ", ".join(f"{k} {statistics.median(v) * 1e3:.0f} ms" for k, v in slow))
    h = np.array(hash_times) * 1e3
    print(f"kir.parse + canonical_hash (separate): median {np.median(h):.1f} ms, max {h.max():.0f} ms")


if __name__ == "__main__":
    main()
