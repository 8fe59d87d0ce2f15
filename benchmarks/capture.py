"""Capture time per program: cold (a fresh Python process, imports included) and warm (the same process,
after one capture). Targets on the project's 2-core machines: warm <= 1.5 s, cold <= 10 s per program.

    .venv/bin/python benchmarks/capture.py [--cold N] [PROGRAM ...]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def cold(name: str) -> float:
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", f"from workbench.capture import capture; capture({name!r})"],
        check=True, capture_output=True,
    )
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--cold", type=int, default=3, help="how many programs to time cold (each a new process)")
    args = ap.parse_args()

    from tqdm import tqdm

    from workbench import programs
    from workbench.capture import capture

    names = args.programs or programs.names()
    capture(names[0])  # first capture in this process pays imports and Inductor set-up
    warm = {}
    for name in tqdm(names, desc="warm", unit="program"):
        t = time.perf_counter()
        capture(name)
        warm[name] = time.perf_counter() - t
    colds = {name: cold(name) for name in tqdm(names[: args.cold], desc="cold", unit="process")}

    print(f"{'program':28s} {'warm s':>7s} {'cold s':>7s}")
    for name in names:
        c = f"{colds[name]:7.2f}" if name in colds else "      -"
        print(f"{name:28s} {warm[name]:7.2f} {c}")
    w = list(warm.values())
    print(f"warm: median {statistics.median(w):.2f} s, max {max(w):.2f} s over {len(w)} programs (target <= 1.5 s)")
    if colds:
        c = list(colds.values())
        print(f"cold: median {statistics.median(c):.2f} s, max {max(c):.2f} s over {len(c)} processes (target <= 10 s)")


if __name__ == "__main__":
    main()
