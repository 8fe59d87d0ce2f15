"""Zoo throughput: kernels captured and checked per minute with 1 and with 2 workers, measured in one run.

Each configuration runs the same models from scratch (a fresh output folder, so nothing is resumed) on a Dask
``LocalCluster`` of N single-threaded worker processes (``--engine dask``, default) or N local processes
(``--engine local``, ``workbench zoo run --jobs N``). Every model is captured in its own child process, so
each run pays its imports; the ratio is what a second worker buys on this machine, under whatever else runs
on it (say how loaded the machine was when quoting it).

    .venv/bin/python benchmarks/zoo.py [--engine dask|local] [--models a,b,...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

DEFAULT = "layernorm_mlp,conv_bn_relu,groupnorm_silu,embedding_layernorm"


def measure(models: list[str], workers: int, engine: str) -> tuple[int, float]:
    """(kernels, seconds) for one run of ``models`` on ``workers`` workers."""
    from workbench.zoo.runner import run_zoo

    with tempfile.TemporaryDirectory(prefix="zoo-bench-") as tmp:
        t0 = time.perf_counter()
        if engine == "dask":
            from dask.distributed import LocalCluster

            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as c:
                t0 = time.perf_counter()  # cluster start-up is not part of the throughput
                results = run_zoo(models, Path(tmp), scheduler=c.scheduler_address)
                seconds = time.perf_counter() - t0
        else:
            results = run_zoo(models, Path(tmp), jobs=workers)
            seconds = time.perf_counter() - t0
    failed = [n for n, r in results.items() if r.error]
    if failed:
        print(f"  warning: {', '.join(failed)} failed to capture (counted as 0 kernels)")
    return sum(len(r.kernels) for r in results.values()), seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=["dask", "local"], default="dask")
    ap.add_argument("--models", default=DEFAULT)
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    rates = {}
    for workers in (1, 2):
        kernels, seconds = measure(models, workers, args.engine)
        rates[workers] = 60 * kernels / seconds
        print(f"{workers} worker(s), {args.engine}: {kernels} kernels from {len(models)} models in {seconds:.1f} s "
              f"= {rates[workers]:.1f} kernels/minute")
    print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
