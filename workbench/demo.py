"""``workbench demo``: the pipeline end to end on report 1's program, on the embedded default (no GPU, no
Lean): capture ``nested_cat_add`` through the fake CUDA device and print its fused kernel's size arguments
with their symbolic expressions and the int32 guard, then each later stage that exists."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the pipeline end to end on nested_cat_add (no GPU, no Lean needed)")
    p.add_argument("--program", default="nested_cat_add", help="registered program (default nested_cat_add)")
    p.set_defaults(func=run)


def run(args) -> int:
    from workbench.capture import capture
    from workbench.capture.show import describe

    print(f"== 1. capture {args.program} (torch.compile(dynamic=True), Inductor's GPU lowering) ==")
    kernels = capture(args.program)
    for k in kernels:
        print(describe(k))
        print()
    return 0
