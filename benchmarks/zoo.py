"""Zoo throughput: kernels captured and checked per minute with 1 and with 2 workers, measured in one run.

Each configuration runs the same models from scratch (a fresh output folder, so nothing is resumed and nothing
is cached between models) on N local worker processes (``--engine local``, default: ``workbench zoo run --jobs
N``) or a Dask ``LocalCluster`` of N single-threaded worker processes (``--engine dask``). Every model is
captured in a child process of its own, forked from the worker's capture server (workbench/capture/forkserver.py),
which pays torch's imports once per worker; ``--fresh`` captures every model in a fresh interpreter instead (the
path before the server), and ``--compare`` runs both with 1 worker, so the two are measured on the same machine
in the same run. Every configuration starts with an empty capture cache (workbench/capture/cache.py), so all
of them capture every model; ``--cached`` then runs 1 worker again on the cache the first configuration filled
(models unchanged: records read, every kernel checked again). Times are wall clock: say how loaded the machine
was when quoting them.

    .venv/bin/python benchmarks/zoo.py [--models a,b,...] [--engine local|dask] [--fresh | --compare]
                                       [--workers 1,2] [--per-model] [--keep DIR] [--cached]

Default models: the default zoo (``workbench zoo list``). Issue 24's targets: >= 60 kernels per minute with 1
worker on the 2-core machine, resnet18 in <= 15 s (``--models resnet18``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def measure(models: list[str], workers: int, engine: str, fresh: bool, cache: Path, keep: str | None = None
            ) -> tuple[dict, float]:
    """(results by model, seconds) for one run of ``models`` on ``workers`` workers, with capture cache folder
    ``cache`` (``keep``: a copy of the run's output folder, records included, is left there)."""
    from workbench.capture import cache as capture_cache
    from workbench.capture import forkserver
    from workbench.check.api import clear_caches
    from workbench.zoo.runner import run_zoo

    if fresh:
        os.environ[forkserver.FRESH_ENV] = "1"
    else:
        os.environ.pop(forkserver.FRESH_ENV, None)
    os.environ[capture_cache.CACHE_ENV] = str(cache)
    done = []

    def progress(r, _results) -> None:  # a configuration runs for minutes: one line per finished model
        done.append(r.name)
        print(f"  [{len(done)}/{len(models)}] {r.name}: {len(r.kernels)} kernels", file=sys.stderr, flush=True)

    forkserver.shutdown()  # every configuration starts its own servers (their start-up is part of the time)
    clear_caches()  # and checks cold: a 1-worker run checks in this process, whose caches a run before it filled
    try:
        with tempfile.TemporaryDirectory(prefix="zoo-bench-") as tmp:
            if engine == "dask":
                from dask.distributed import LocalCluster

                with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
                    t0 = time.perf_counter()  # cluster start-up is not part of the throughput
                    results = run_zoo(models, Path(tmp), scheduler=c.scheduler_address, on_done=progress)
                    seconds = time.perf_counter() - t0
            else:
                t0 = time.perf_counter()
                results = run_zoo(models, Path(tmp), jobs=workers, on_done=progress)
                seconds = time.perf_counter() - t0
            if keep:
                import shutil

                shutil.copytree(tmp, keep, dirs_exist_ok=True)
    finally:
        forkserver.shutdown()
        os.environ.pop(forkserver.FRESH_ENV, None)
    return results, seconds


def report(label: str, results: dict, seconds: float) -> float:
    kernels = sum(len(r.kernels) for r in results.values())
    failed = [n for n, r in results.items() if r.error]
    capture = sum(r.capture_seconds for r in results.values())
    check = sum(r.check_seconds for r in results.values())
    rate = 60 * kernels / seconds
    print(f"{label}: {kernels} kernels from {len(results)} models in {seconds:.1f} s = {rate:.1f} kernels/minute "
          f"(per model, summed: capture {capture:.1f} s, check {check:.1f} s)", flush=True)
    if failed:
        print(f"  {', '.join(failed)} did not capture (0 kernels each)")
    return rate


def main() -> None:
    from workbench.zoo import registry

    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=["local", "dask"], default="local")
    ap.add_argument("--models", help="comma-separated models (default: the default zoo)")
    ap.add_argument("--workers", default="1,2", help="worker counts to run (default 1,2)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--fresh", action="store_true", help="every capture in a fresh interpreter (no server)")
    mode.add_argument("--compare", action="store_true", help="also run 1 worker with --fresh, for the ratio")
    ap.add_argument("--per-model", action="store_true", help="print each model's capture and check seconds")
    ap.add_argument("--keep", help="copy the first configuration's output folder (results, records) here")
    ap.add_argument("--cached", action="store_true",
                    help="also run 1 worker on the capture cache the first configuration filled")
    args = ap.parse_args()
    models = [m for m in (args.models or ",".join(registry.names())).split(",") if m]
    workers = [int(w) for w in args.workers.split(",") if w]
    print(f"{len(models)} models, engine {args.engine}, load average at start {os.getloadavg()[0]:.2f}", flush=True)
    rates = {}
    with tempfile.TemporaryDirectory(prefix="zoo-bench-cache-") as caches:
        first = Path(caches) / "first"
        for n in workers:
            cache = first if n == workers[0] else Path(tempfile.mkdtemp(dir=caches))
            results, seconds = measure(models, n, args.engine, args.fresh, cache,
                                       args.keep if n == workers[0] else None)
            rates[n] = report(f"{n} worker(s){' (fresh interpreters)' if args.fresh else ''}", results, seconds)
            if args.per_model and n == workers[0]:
                per_model(results)
        if 1 in rates and 2 in rates:
            print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x")
        if args.compare:
            results, seconds = measure(models, 1, args.engine, True, Path(tempfile.mkdtemp(dir=caches)))
            fresh = report("1 worker, fresh interpreters", results, seconds)
            if 1 in rates:
                print(f"capture server vs fresh interpreters, 1 worker: {rates[1] / fresh:.2f}x")
        if args.cached:
            if args.fresh:
                print("--cached: fresh interpreters bypass the capture cache; nothing to rerun")
            else:
                results, seconds = measure(models, 1, args.engine, False, first)
                hits = sum(r.capture_cached for r in results.values())
                report(f"1 worker, capture cache of the first run ({hits} of {len(results)} models read from it)",
                       results, seconds)
                if args.per_model:
                    per_model(results)
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def per_model(results: dict) -> None:
    for name, r in sorted(results.items()):
        print(f"  {name:28s} {len(r.kernels):4d} kernels  capture {r.capture_seconds:6.1f} s  "
              f"check {r.check_seconds:6.1f} s  total {r.capture_seconds + r.check_seconds:6.1f} s"
              f"{'  (capture cached)' if r.capture_cached else ''}")


if __name__ == "__main__":
    main()
