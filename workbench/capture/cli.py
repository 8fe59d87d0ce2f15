"""CLI: ``workbench list``, ``workbench capture``, ``workbench show``."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the registered programs")
    p.set_defaults(func=_list)

    p = sub.add_parser("capture", help="capture a program's Triton kernels with their symbolic facts")
    p.add_argument("program", nargs="?", help="a registered program name or a FILE.py defining program() and example_inputs()")
    p.add_argument("--all", action="store_true", help="capture every registered program into data/kernels/")
    p.add_argument("--device", choices=["cuda", "fake-cuda", "cpu"], default="cuda",
                   help="cuda: the real GPU if present, else a fake CUDA device (default); cpu: Triton CPU backend")
    p.add_argument("--gpu", default="L4", help="GPU profile the fake device reports (L4, H100, H200)")
    p.add_argument("--out", help="output directory (default data/kernels/<program>/)")
    p.set_defaults(func=_capture)

    p = sub.add_parser("show", help="print a captured kernel's facts")
    p.add_argument("kernel", help="a KERNEL.json written by `workbench capture`")
    p.add_argument("--source", action="store_true", help="also print the Triton source")
    p.set_defaults(func=_show)


def _list(args) -> int:
    from workbench import programs

    for name in programs.names():
        prog = programs.get(name)
        print(f"{name:26s} {prog.description}")
    return 0


def _capture(args) -> int:
    from workbench.capture import capture_program
    from workbench.capture.show import describe
    from workbench.errors import UsageError

    if args.all:
        return _capture_all(args)
    if not args.program:
        raise UsageError("name a program (or a FILE.py) to capture, or pass --all; `workbench list` shows names")
    kernels, paths = capture_program(args.program, device=args.device, out=args.out, gpu=args.gpu)
    for k, path in zip(kernels, paths):
        print(describe(k))
        print(f"saved    {path} (+ {Path(path).with_suffix('.py').name})")
        print()
    return 0


def _show(args) -> int:
    from workbench.capture import load
    from workbench.capture.show import describe

    k = load(args.kernel)
    print(describe(k))
    if args.source:
        print()
        print(k.source)
    return 0


def _capture_all(args) -> int:
    import shutil

    from tqdm import tqdm

    from workbench import programs
    from workbench.capture import capture, default_out_dir, save

    names = programs.names()
    total = 0
    for name in tqdm(names, desc="capture", unit="program"):
        kernels = capture(name, device=args.device, gpu=args.gpu)
        out = default_out_dir(name)
        shutil.rmtree(out, ignore_errors=True)  # a kernel that is no longer emitted must not linger
        for k in kernels:
            save(k, out)
        total += len(kernels)
    print(f"captured {total} kernels from {len(names)} programs")
    return 0
