"""CLI: ``workbench list``, ``workbench capture``, ``workbench show``.

``capture NAME|FILE.py`` writes records into the workspace (``<workspace>/kernels/<folder>/``, see
:mod:`workbench.resolve`), never into the checkout; ``--out DIR`` writes elsewhere on purpose.
``capture --all`` is the developer command that regenerates the shipped corpus in ``data/kernels/``.
``show NAME|DIR|FILE`` prints records from the workspace or the shipped corpus. Each has ``--json``
(the output contract of :mod:`workbench.contract`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench import workspace


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the registered programs")
    p.add_argument("--json", action="store_true", help="print a workbench.programs/1 document")
    p.set_defaults(func=_list)

    p = sub.add_parser("capture", help="capture a program's Triton kernels with their symbolic facts")
    p.add_argument("program", nargs="?", help="a registered program name or a FILE.py defining program() and example_inputs()")
    p.add_argument("--all", action="store_true",
                   help="developer: re-capture every registered program into the shipped corpus data/kernels/")
    p.add_argument("--device", choices=["cuda", "fake-cuda", "cpu"], default="cuda",
                   help="cuda: the real GPU if present, else a fake CUDA device (default); cpu: Triton CPU backend")
    p.add_argument("--gpu", default="L4", help="GPU profile the fake device reports (L4, H100, H200)")
    p.add_argument("--backward", action="store_true",
                   help="a training step: the forward and backward kernels of the output summed (or the file's "
                        "loss(output)); without a GPU on Inductor's Triton CPU backend")
    p.add_argument("--out", help="output directory (default: <workspace>/kernels/<program>/)")
    p.add_argument("--json", action="store_true", help="print a workbench.capture/1 document")
    workspace.add_argument(p)
    p.set_defaults(func=_capture)

    p = sub.add_parser("show", help="print a captured kernel's facts")
    p.add_argument("kernel", help="a KERNEL.json, a folder of them, or a captured program NAME")
    p.add_argument("--source", action="store_true", help="also print the Triton source")
    p.add_argument("--hashes", action="store_true", help="also print the three hashes behind the kernel id")
    asm = p.add_mutually_exclusive_group()
    asm.add_argument("--ptx", action="store_true",
                     help="the PTX of W, N1 and P as `bench static` compiles them, by source line (no GPU needed)")
    asm.add_argument("--sass", action="store_true", help="the same for the SASS; 64-bit division CALL sites marked >>")
    p.add_argument("--variant", default="W,N1,P", help="with --ptx/--sass: which variants (default W,N1,P)")
    p.add_argument("--arch", default="sm_89", help="with --ptx/--sass: sm_80, sm_89 (default) or sm_90")
    p.add_argument("--json", action="store_true", help="print a workbench.show/1 document")
    workspace.add_argument(p)
    p.set_defaults(func=_show)


def _list(args) -> int:
    from workbench import contract, programs

    if args.json:
        items = [{"name": n, "description": programs.get(n).description} for n in programs.names()]
        return contract.emit(contract.document("programs", 1, contract.Verdict.OK, programs=items))
    for name in programs.names():
        prog = programs.get(name)
        print(f"{name:26s} {prog.description}")
    return 0


def _kernel_json(k, path: Path | None, with_hashes: bool = False) -> dict:
    from workbench.capture.show import hashes, kernel_id

    d = {"id": kernel_id(k), "program": k.program, "kernel": k.name, "path": None if path is None else str(path),
         "index_dtype": k.index_dtype, "size_args": {a.name: {"type": a.type, "expr": a.expr} for a in k.size_args},
         "guards": list(k.guards)}
    if with_hashes:
        d["hashes"] = hashes(k)
    return d


def _capture(args) -> int:
    from workbench import contract, progress
    from workbench.capture.show import describe
    from workbench.errors import UsageError

    if args.all:
        return _capture_all(args)
    if not args.program:
        raise UsageError("name a program (or a FILE.py) to capture, or pass --all; `workbench list` shows names")
    with progress.phase(f"capture {args.program}"):
        if args.out:
            from workbench.capture import capture_program

            kernels, paths = capture_program(args.program, device=args.device, out=args.out, gpu=args.gpu,
                                             backward=args.backward)
            folder = Path(args.out)
        else:
            from workbench.resolve import capture_into_workspace

            folder, located = capture_into_workspace(args.program, args.workspace, device=args.device, gpu=args.gpu,
                                                     backward=args.backward)
            kernels, paths = [loc.record for loc in located], [loc.path for loc in located]
    if args.json:
        return contract.emit(contract.document(
            "capture", 1, contract.Verdict.OK, folder=str(folder),
            kernels=[_kernel_json(k, Path(p)) for k, p in zip(kernels, paths)]))
    for k, path in zip(kernels, paths):
        print(describe(k))
        print(f"saved    {path} (+ {Path(path).with_suffix('.py').name})")
        print()
    print(f"next     workbench check {folder}")
    return 0


def _show(args) -> int:
    from workbench import contract
    from workbench.capture.show import describe
    from workbench.resolve import records

    found = records(args.kernel, args.workspace)
    if args.ptx or args.sass:
        return _show_machine_code(args, [loc.record for loc in found])
    if args.json:
        return contract.emit(contract.document(
            "show", 1, contract.Verdict.OK,
            kernels=[dict(_kernel_json(loc.record, loc.path, args.hashes),
                          **({"source": loc.record.source} if args.source else {})) for loc in found]))
    for i, loc in enumerate(found):
        if i:
            print()
        print(describe(loc.record, show_hashes=args.hashes))
        print(f"file     {loc.path}")
        if args.source:
            print()
            print(loc.record.source)
    return 0


def _show_machine_code(args, recs) -> int:
    import sys

    from workbench import contract
    from workbench.bench import machine

    asm = "ptx" if args.ptx else "sass"
    listings, missing = machine.show(recs, asm, args.variant, args.arch, args.workspace)
    if args.json:
        return contract.emit(contract.document("show", 1, contract.Verdict.OK, machine_code=[
            {"program": lst.program, "kernel": lst.kernel, "variant": lst.variant, "arch": lst.arch, "asm": asm,
             "instructions": len(lst.code(asm)), "division_sites": lst.divisions(asm),
             "lines": [{"line": n, "source": src, "code": [i.text for i in ins],
                        "division_sites": sum(i.division for i in ins)} for n, src, ins in lst.by_line(asm)]}
            for lst in listings], not_listed=missing))
    print(machine.text(listings, asm), end="")
    for line in missing:
        print(line, file=sys.stderr)
    return 0


def _capture_all(args) -> int:
    import shutil

    from workbench import programs, progress
    from workbench.capture import capture, default_out_dir, save

    names = programs.names()
    total = 0
    for name in progress.track(names, desc="capture", unit="program"):
        kernels = capture(name, device=args.device, gpu=args.gpu)
        out = default_out_dir(name)
        shutil.rmtree(out, ignore_errors=True)  # a kernel that is no longer emitted must not linger
        for k in kernels:
            save(k, out)
        total += len(kernels)
    print(f"captured {total} kernels from {len(names)} programs into {default_out_dir('').parent}")
    return 0
