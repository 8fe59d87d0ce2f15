"""Benchmark: time to certify one kernel, search included (parse, premises, search, trusted check, discharge).

Prints the median and p90 per kernel (target: median <= 50 ms) and the whole-corpus time, for the observable
mode, with the z3 cross-check on (it only runs on conditions the exact procedure fails) and counterexample
search off. Every figure is given twice: wall-clock time and CPU time of this process
(``time.process_time``), with the load average before and after: the machine is shared, and on a loaded
machine the wall time of a single-threaded check is inflated while its CPU time is not. ``kir.canonical_hash`` (the certificate's binding hash, computed by ``workbench.kir``) is timed
separately: it is the IR stage's cost, paid once per kernel body.

Reduction kernels (``triton_red_*``/``triton_per_*``: the corpus's and the captured zoo records under
``tests/kir/data/reduction`` and ``tests/check/data/uniform``) are reported separately, per kernel (target:
each <= 100 ms). Kernels the IR refuses by name (out of class: scans, fp32 indices) are counted and left out
of the timings.

    .venv/bin/python benchmarks/check.py [--repeat 3] [--mode observable]
"""

from __future__ import annotations

import argparse
import os
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
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    every = corpus_records()
    records, corpus_reductions, refused = [], [], []
    for r in every:
        try:
            k = kir.parse(r)
        except kir.errors.RefusedConstruct:
            refused.append(r.program + "/" + r.name)
            continue
        (corpus_reductions if k.reduction is not None else records).append(r)
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
        cpu = {r.program + "/" + r.name: [] for r in records}
        t_all, c_all = time.perf_counter(), time.process_time()
        for _ in range(args.repeat):
            api.clear_caches()  # cold: no memoised multipliers or z3 results from the previous round
            for r in records:
                t, c = time.perf_counter(), time.process_time()
                api.check_kernel(r, args.mode, counterexample=False)
                samples[r.program + "/" + r.name].append(time.perf_counter() - t)
                cpu[r.program + "/" + r.name].append(time.process_time() - c)
        corpus = (time.perf_counter() - t_all) / args.repeat
        corpus_cpu = (time.process_time() - c_all) / args.repeat
    finally:
        kir.parse = orig_parse
    print(f"pointwise and indirect kernels: {len(records)}  mode: {args.mode}  repeats: {args.repeat}  "
          f"(out of class, not timed: {len(refused)}: {', '.join(refused)})")
    for what, table in (("wall", samples), ("cpu", cpu)):
        per_kernel = np.array([statistics.median(v) for v in table.values()]) * 1e3
        print(f"certify one kernel (search + check), {what}: median {np.median(per_kernel):.1f} ms, "
              f"p90 {np.percentile(per_kernel, 90):.1f} ms, max {per_kernel.max():.1f} ms  (target median <= 50 ms)")
    print(f"whole corpus: {corpus:.2f} s wall, {corpus_cpu:.2f} s cpu")
    slow = sorted(samples, key=lambda k: -statistics.median(samples[k]))[:3]
    print("slowest: " + ", ".join(f"{k} {statistics.median(samples[k]) * 1e3:.0f} ms wall "
                                  f"({statistics.median(cpu[k]) * 1e3:.0f} ms cpu)" for k in slow))
    h = np.array(hash_times) * 1e3
    print(f"kir.parse + canonical_hash (separate): median {np.median(h):.1f} ms, max {h.max():.0f} ms")
    reductions(args.repeat, args.mode, corpus_reductions)
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def reductions(repeat: int, mode: str, corpus_records=()) -> None:
    """Per-kernel time of the reduction kernels (search + check, z3 on, no counterexample search)."""
    from pathlib import Path

    from workbench import kir
    from workbench.capture import load
    from workbench.check import api

    root = Path(__file__).resolve().parent.parent / "tests"
    # the captured zoo records: reductions of tests/kir/data/reduction, and those of tests/check/data/uniform
    # (div_floor_integer, Max(1, e), refused before issue 13's lane-uniform rules)
    paths = sorted((root / "kir" / "data" / "reduction").glob("*.json"))
    paths += sorted(p for p in (root / "check" / "data" / "uniform").glob("triton_*.json")
                    if p.name.startswith(("triton_red_", "triton_per_")))
    rows = []
    for rec in [*corpus_records, *(load(p) for p in paths)]:
        try:
            api.ir_hash(kir.parse(rec))  # the hash is the IR's cost, timed above for the corpus
        except kir.errors.RefusedConstruct:
            pass
        times, cpus, verdict = [], [], ""
        for _ in range(repeat):
            api.clear_caches()
            t, c = time.perf_counter(), time.process_time()
            verdict = api.check_kernel(rec, mode, counterexample=False).verdict
            times.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
        rows.append((rec.name, verdict, statistics.median(times) * 1e3, statistics.median(cpus) * 1e3))
    print(f"reduction kernels: {len(rows)}  mode: {mode}  (target: each <= 100 ms)")
    print("     wall       cpu  verdict       kernel")
    for name, verdict, ms, cms in rows:
        print(f"  {ms:7.1f} ms {cms:6.1f} ms  {verdict:12s}  {name}")
    if rows:
        print(f"reductions: median {statistics.median(r[2] for r in rows):.1f} ms wall "
              f"({statistics.median(r[3] for r in rows):.1f} ms cpu), max {max(r[2] for r in rows):.1f} ms wall "
              f"({max(r[3] for r in rows):.1f} ms cpu)")


if __name__ == "__main__":
    main()
