"""``workbench floats check --level ptx`` and ``workbench floats flags`` (stage: floats/ptx).

    workbench floats check SPEC.py KERNEL.cu --level ptx [--arch sm_89] [--nvcc-flags="--fmad=false"] [--json]
    workbench floats flags SPEC.py KERNEL.cu [--arch sm_89] [--spec-device cuda|cpu] [--json]
    workbench floats flags --all [--corpus DIR] [--out DIR]   (default out: the workspace's floats/;
                                                               --out data/floats regenerates the shipped table)

``flags`` decides the kernel under each of ``nvcc.FLAG_SETS`` (default, ``--fmad=false``, ``--ftz=true``,
``-use_fast_math``) against the spec as PyTorch computes it on ``--spec-device`` (cuda by default, the
same op table as the source level) and prints one row each: verdict, mismatch count, a witness. Exit codes:
0 accepted (or a report written), 1 not accepted, 2 bad input or no nvcc (``NvccNotFoundError`` names how to
point at it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from workbench import workspace
from workbench.contract import Verdict, document, emit, overall
from workbench.floats.errors import FloatsUsageError
from workbench.floats.ptx.nvcc import DEFAULT_ARCH, Flags, check_arch, parse_flags


def flags_from_args(args) -> Flags:
    """``--nvcc-flags`` text; the source level's ``--fma off`` / ``--ftz on`` map to ``--fmad=false`` /
    ``--ftz=true`` unless ``--nvcc-flags`` sets them itself."""
    text = args.nvcc_flags or ""
    if getattr(args, "fma", "on") == "off" and "fmad" not in text:
        text += " --fmad=false"
    if getattr(args, "ftz", "off") == "on" and "ftz" not in text:
        text += " --ftz=true"
    return parse_flags(text)


def run_check_ptx(args) -> int:
    from workbench.floats.ptx.check import check_ptx
    from workbench.floats.spec import capture_spec

    if args.all:
        raise FloatsUsageError("--level ptx checks one kernel; for the corpus use `workbench floats flags --all`")
    if args.lean:
        raise FloatsUsageError("--lean is produced by the source level; drop --lean or use --level source")
    if not args.spec or not args.kernel:
        raise FloatsUsageError("give SPEC.py and KERNEL.cu (e.g. `workbench floats check data/floats/corpus/relu/"
                               "spec.py data/floats/corpus/relu/ternary.cu --level ptx`)")
    flags = flags_from_args(args)
    arch = check_arch(args.arch or DEFAULT_ARCH)
    progress = not args.no_progress and sys.stderr.isatty() or args.progress
    if args.kernel.endswith(".py"):
        return _check_kernelbench_ptx(args, flags, arch, progress)
    spec = capture_spec(args.spec, args.spec_device)
    v = check_ptx(spec, args.kernel, flags, arch, args.nan, workers=args.workers, progress=progress)
    if args.json:
        return emit(v.document())
    print(report(args.spec, args.kernel, v))
    return 0 if v.accepted else 1


def _check_kernelbench_ptx(args, flags, arch: str, progress: bool) -> int:
    """REFERENCE.py ANSWER.py at the PTX level: the kernel text the source level reads (wrappers blanked, lines
    kept) plus the launch read from the wrapper as a ``// launch:`` comment, compiled by nvcc in a temporary
    folder. The PTX level binds inputs by parameter order, so a kernel whose inputs the wrapper passes in
    another order than forward's is refused by name."""
    import tempfile

    from workbench.floats.kernelbench import load, split_source
    from workbench.floats.ptx.check import check_ptx

    problem, spec, kernel, answer, notes = load(args.spec, args.kernel, args.spec_device)
    read = [p for p in kernel.params if p in kernel.inputs]
    if list(kernel.inputs) != read:
        raise FloatsUsageError(f"{kernel.name} reads its inputs in the order {read} but forward passes "
                               f"{list(kernel.inputs)}; the PTX level binds inputs by parameter order: use --level "
                               "source for this answer")
    text = split_source(answer.cuda)[0] + f"\n// launch: grid = {kernel.launch.grid}, block = {kernel.launch.block}\n"
    with tempfile.TemporaryDirectory(prefix="workbench-kernelbench-ptx-") as tmp:
        cu = Path(tmp) / (Path(answer.path).stem + ".cu")
        cu.write_text(text)
        v = check_ptx(spec, cu, flags, arch, args.nan, workers=args.workers, progress=progress)
    from dataclasses import replace

    v = replace(v, notes=tuple(notes) + v.notes)
    if args.json:
        return emit(v.document())
    print(report(args.spec, args.kernel, v))
    return 0 if v.accepted else 1


def report(spec_path, kernel_path, v) -> str:
    lines = [f"spec     {spec_path}", f"kernel   {kernel_path}: {v.kernel}  (PTX for {v.arch}, nvcc flags: "
             f"{v.flags.label})"]
    lines += [f"         element function: {f}" for f in v.functions]
    lines += [f"level    ptx   NaN policy: {v.nan}   spec device: {v.spec_device} (PyTorch's {v.spec_device} kernels)",
              f"verdict  {v.summary}"]
    lines += [f"         also {w.describe()}" for w in v.witnesses[1:6]]
    lines.append(f"safety   {v.safety.summary()}")
    lines += [f"note     {n}" for n in v.notes]
    return "\n".join(lines)


def run_flags(args) -> int:
    from workbench.floats.ptx.flags import flags_table, render_rows, run_corpus

    arch = check_arch(args.arch or DEFAULT_ARCH)
    progress = not args.no_progress and sys.stderr.isatty() or args.progress
    if args.all:
        if args.spec or args.kernel:
            raise FloatsUsageError("--all runs the whole corpus; drop SPEC.py and KERNEL.cu, or drop --all")
        from workbench.floats.corpus import CORPUS

        out = Path(args.out) if args.out else workspace.subdir("floats", args.workspace)  # never the checkout
        paths = run_corpus(Path(args.corpus) if args.corpus else CORPUS, out, arch, args.workers, progress,
                           count_mismatches=args.count_all, exhaustive=not args.quick, spec_device=args.spec_device)
        print(f"wrote {paths[0]} and {paths[1]}")
        return 0
    if not args.spec or not args.kernel:
        raise FloatsUsageError("give SPEC.py and KERNEL.cu (e.g. `workbench floats flags data/floats/corpus/"
                               "scale_shift/spec.py data/floats/corpus/scale_shift/mul_add.cu`), or --all")
    rows = flags_table(args.spec, args.kernel, arch, args.nan, workers=args.workers, progress=progress,
                       spec_device=args.spec_device)
    doc = document("floats", 1, Verdict.OK, level="ptx", arch=arch, command="flags", spec=str(args.spec),
                   spec_device=args.spec_device,
                   kernel=str(args.kernel), nan=args.nan, rows=rows, flags=[r["flags"] for r in rows],
                   worst=overall(r["verdict"] for r in rows).value)
    if args.json:
        emit(doc)
        return 0
    print(render_rows(str(args.spec), str(args.kernel), arch, rows, args.spec_device))
    return 0


def add_check_arguments(p) -> None:
    p.add_argument("--level", default="source", choices=("source", "ptx"),
                   help="decide on the CUDA source (default) or on the PTX nvcc emits (needs nvcc)")
    p.add_argument("--arch", help=f"--level ptx: GPU architecture for nvcc (default {DEFAULT_ARCH})")
    p.add_argument("--nvcc-flags", default="", metavar="FLAGS",
                   help="--level ptx: nvcc float flags, e.g. \"--fmad=false --ftz=true\" or -use_fast_math")


def register_flags(sub) -> None:
    p = sub.add_parser("flags", help="verdict of KERNEL.cu under nvcc's common flag sets (PTX level, needs nvcc)")
    p.add_argument("spec", nargs="?", help="SPEC.py defining program(x, ...)")
    p.add_argument("kernel", nargs="?", help="KERNEL.cu with one __global__ kernel")
    p.add_argument("--arch", help=f"GPU architecture for nvcc (default {DEFAULT_ARCH})")
    p.add_argument("--nan", default="any", choices=("any", "payload"), help="NaN policy (default any)")
    p.add_argument("--spec-device", default="cuda", choices=("cuda", "cpu"),
                   help="the device whose PyTorch kernels define the spec (default cuda)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--all", action="store_true", help="developer: every corpus kernel; writes flags.json/flags.md")
    p.add_argument("--corpus", help="corpus folder for --all (default: the shipped data/floats/corpus)")
    p.add_argument("--out", default=None, help="where --all writes flags.json and flags.md (default: the workspace's "
                   "floats/; the shipped table is regenerated with --out data/floats)")
    p.add_argument("--quick", action="store_true", help="--all: case split only, no 2**32 sweeps")
    p.add_argument("--count-all", action="store_true", help="--all: also sweep refuted unary kernels for counts")
    p.add_argument("--workers", type=int, default=2, help="processes for the 2**32 sweep (default 2)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--progress", action="store_true", help="progress bar even when stderr is not a terminal")
    workspace.add_argument(p)
    p.set_defaults(func=run_flags)
