"""``workbench floats ...``: check a CUDA kernel against its PyTorch spec, or the whole corpus.

    workbench floats check SPEC.py KERNEL.cu [--spec-device cuda|cpu] [--fma on|off] [--ftz on|off]
                                             [--nan any|payload] [--json] [--lean OUT.lean] [--no-progress]
    workbench floats check REFERENCE.py ANSWER.py [same options]   (KernelBench files: floats/kernelbench.py)
        answers whose threads share data (shared memory, barriers, shuffles, atomics) or references that reduce,
        normalise or multiply matrices go to the block level (floats/block, --trials N; JSON workbench.floats-block/1)
    workbench floats check --all [--corpus DIR] [--out DIR] [--no-sweep]   (default out: the workspace's floats/)
    workbench floats check SPEC.py KERNEL.cu --level ptx [--arch sm_89] [--nvcc-flags="..."]  (floats/ptx)
    workbench floats flags SPEC.py KERNEL.cu [--arch sm_89] [--json]                          (floats/ptx)
    workbench floats block-table [--corpus DIR] [--level1 DIR] [--out DIR] [--trials N] [--json]     (floats/block)
    workbench floats coverage [--out DIR] [--only 19,23] [--json]   KernelBench level-1 coverage table (floats/coverage)

``--json`` prints ``workbench.floats/2``: the one verdict (safety first) plus the semantic result, the CUDA
function under ``cuda_function``, the spec device, witnesses and the safety findings. Exit codes: 0 when the
kernel is accepted (equivalent on all inputs and safe) or the table was written, 1 when the check ran and
the kernel was not accepted, 2 on bad input such as swapped arguments (one line, printed by
``workbench.cli``).
"""

from __future__ import annotations

import json

import os
import sys
from pathlib import Path

from workbench import contract, workspace
from workbench.floats.errors import FloatsUsageError
from workbench.floats.kbcheck import check_kernelbench  # noqa: F401  (the CLI's route, also the coverage table's)
from workbench.floats.progress import Steps


def _onoff(flag: str, value: str) -> bool:
    if value not in ("on", "off"):
        raise FloatsUsageError(f"{flag} {value!r} is not on or off")
    return value == "on"


def _paths(spec: str, kernel: str) -> None:
    """Refuse swapped or wrong arguments before any work: SPEC.py first, then KERNEL.cu."""
    if spec.endswith(".cu") and kernel.endswith(".py"):
        raise FloatsUsageError(f"arguments are swapped ({spec!r} is a kernel, {kernel!r} a spec); give SPEC.py "
                               "first, then KERNEL.cu")
    if not spec.endswith(".py"):
        raise FloatsUsageError(f"SPEC {spec!r} is not a .py file; give SPEC.py (defining program) first, then KERNEL.cu")
    if not kernel.endswith((".cu", ".cuh")):
        raise FloatsUsageError(f"KERNEL {kernel!r} is not a .cu file; give SPEC.py first, then KERNEL.cu")


def run_check(args) -> int:
    if getattr(args, "level", "source") == "ptx":
        from workbench.floats.ptx.cli import run_check_ptx

        return run_check_ptx(args)
    if getattr(args, "arch", None) or getattr(args, "nvcc_flags", ""):
        raise FloatsUsageError("--arch and --nvcc-flags apply to --level ptx; add --level ptx or drop them")
    from workbench.floats.check import Target, check_files
    from workbench.floats.corpus import CORPUS, check_all, write_table

    progress = not args.no_progress and sys.stderr.isatty() or args.progress
    if args.progress and not args.no_progress:  # --progress: the terminal form even where stderr is no terminal
        os.environ.setdefault("WORKBENCH_PROGRESS", "1")
    if args.all:
        if args.spec or args.kernel:
            raise FloatsUsageError("--all checks the whole corpus; drop SPEC.py and KERNEL.cu, or drop --all")
        verdicts = check_all(Path(args.corpus or CORPUS), workers=args.workers, progress=progress,
                             spec_device=args.spec_device, exhaustive=not args.no_sweep)
        jp, mp = write_table(verdicts, Path(args.out) if args.out else workspace.subdir("floats", args.workspace))
        counts: dict[str, int] = {}
        for v in verdicts:
            counts[v.status] = counts.get(v.status, 0) + 1
        unsafe = len({v.kernel for v in verdicts if not v.safety.safe})
        partial = len({v.kernel for v in verdicts if v.safety.safe and not v.safety.complete})
        print(f"{len(verdicts)} verdicts ({', '.join(f'{k}: {counts[k]}' for k in sorted(counts))}); "
              f"{unsafe} kernels unsafe, {partial} with output not fully written; wrote {jp} and {mp}")
        return 0
    if not args.spec or not args.kernel:
        raise FloatsUsageError("give SPEC.py and KERNEL.cu (e.g. `workbench floats check "
                               "data/floats/corpus/relu/spec.py data/floats/corpus/relu/ternary.cu`), or --all")
    target = Target(fma=_onoff("--fma", args.fma), ftz=_onoff("--ftz", args.ftz))
    if args.spec.endswith(".py") and args.kernel.endswith(".py") and _block_pair(args.spec, args.kernel):
        return run_block(args, target, progress)
    if args.spec.endswith(".py") and args.kernel.endswith(".py"):
        spec, kernel, v = check_kernelbench(args, target, progress)
    else:
        _paths(args.spec, args.kernel)
        spec, kernel, v = check_files(args.spec, args.kernel, target, args.nan, spec_device=args.spec_device,
                                      workers=args.workers, progress=progress, steps=Steps(progress))
    if args.lean:
        Path(args.lean).write_text(lean_text(spec, kernel, v))
    if args.json:
        payload = {k: x for k, x in v.as_dict().items() if k != "verdict"}
        payload["kernel_file"] = kernel.path
        return contract.emit(contract.document("floats", 2, v.verdict, **payload))
    print(report(spec, kernel, v))
    return contract.exit_code(v.verdict)


def run_block_table(args) -> int:
    from workbench.floats.block import table

    corpus = Path(args.corpus) if args.corpus else table.CORPUS
    level1 = Path(args.level1) if args.level1 else table.LEVEL1
    for what, p in (("--corpus", corpus), ("--level1", level1)):
        if not p.is_dir():
            raise FloatsUsageError(f"{what} {str(p)!r} is not a folder; pass the folder of answers / KernelBench "
                                   "level-1 problems")
    rs = table.rows(corpus, level1, table.EXAMPLES, args.trials, progress=not args.no_progress and sys.stderr.isatty())
    out = Path(args.out) if args.out else workspace.subdir("floats", args.workspace) / "block"
    jp, mp = table.write(rs, out)
    if args.json:  # the document written to verdicts.json, with the contract's verdict (an artefact: "ok"),
        # on stdout; the summary line goes to stderr
        print(f"{len(rs)} answers; wrote {jp} and {mp}", file=sys.stderr)
        return contract.emit(contract.with_verdict(json.loads(table.document(rs)), "ok"))
    else:
        print(f"{len(rs)} answers; wrote {jp} and {mp}")
    return 0


def _shapes_arg(text: str) -> tuple[tuple[int, ...], ...]:
    """``--shapes 17x19,19x3``: one shape per input tensor, extents joined by x."""
    try:
        shapes = tuple(tuple(int(d) for d in part.split("x")) for part in text.split(","))
    except ValueError:
        raise FloatsUsageError(f"--shapes {text!r} is not a list of shapes; write one per input, extents joined by "
                               "x, e.g. --shapes 2x259x3 or --shapes 17x19,19x3") from None
    if any(d < 1 for s in shapes for d in s):
        raise FloatsUsageError(f"--shapes {text!r} has an extent below 1; give positive extents")
    return shapes


def _block_pair(reference: str, answer: str) -> bool:
    from workbench.floats.block import wants_block

    if not (Path(reference).is_file() and Path(answer).is_file()):
        return False
    return wants_block(reference, answer)


def run_block(args, target, progress: bool) -> int:
    """``floats check REFERENCE.py ANSWER.py`` for answers whose threads share data, or references that reduce
    or multiply matrices: the block level (``workbench.floats.block``, docs/floats-block.md)."""
    from workbench.floats.block import BlockOptions, check_block
    from workbench.floats.block.report import render

    if getattr(args, "lean", None):
        raise FloatsUsageError("--lean is not emitted for the block level; drop --lean")
    if args.nan != "any":
        raise FloatsUsageError("--nan payload is not modelled by the block level (any NaN equals any NaN); drop --nan")
    opts = BlockOptions(spec_device=args.spec_device, fma=target.fma, ftz=target.ftz, trials=args.trials,
                        progress=progress, shapes=_shapes_arg(args.shapes) if args.shapes else None)
    v = check_block(args.spec, args.kernel, opts)
    if args.json:
        payload = {k: x for k, x in v.as_dict().items() if k != "verdict"}
        return contract.emit(contract.document("floats-block", 1, v.verdict, **payload))
    print(render(v))
    return contract.exit_code(v.verdict)


def lean_text(spec, kernel, v) -> str:
    from workbench.floats.check import Target
    from workbench.floats.gate import element_functions
    from workbench.floats.ir import contract_fma
    from workbench.floats.lean import lean_counterexample, lean_method

    if kernel.scalars:
        raise FloatsUsageError(f"--lean does not emit kernels with scalar parameters yet ({', '.join(kernel.scalars)} "
                               f"in {kernel.name}); drop --lean")
    if spec.dtype.is_half or kernel.outputs:
        what = f"{spec.dtype.value} data" if spec.dtype.is_half else "two output arrays"
        raise FloatsUsageError(f"--lean emits float32 kernels with one output; {kernel.name} has {what}; drop --lean")
    fns = element_functions(kernel).functions
    fns = tuple(contract_fma(f) for f in fns) if v.target.fma else fns
    if v.witnesses:
        w = v.witnesses[0]
        return lean_counterexample(spec.name, spec.expr, spec.arity, kernel.name, fns[w.function], w.inputs,
                                   w.kernel, w.spec, v.target.label)
    assert isinstance(v.target, Target)
    return lean_method(spec.name, spec.expr, spec.arity, kernel.name, kernel.inputs, kernel.output, fns[0],
                       v.target.label, Path(kernel.path).name)


def report(spec, kernel, v) -> str:
    lines = [
        f"spec     {spec.path}  ({', '.join(spec.ops)})",
        f"         f(x) = {v.spec_text}",
        f"kernel   {kernel.path}: {kernel.name}  (inputs {', '.join(kernel.inputs)} -> {', '.join(kernel.outputs or (kernel.output,))}; launch "
        f"grid = {kernel.launch.grid}, block = {kernel.launch.block})",
    ]
    lines += [f"         element function: {f}" for f in v.functions]
    lines += [f"target   {v.target.label}   NaN policy: {v.nan}   spec device: {v.spec_device} "
              f"(PyTorch's {v.spec_device} kernels)",
              f"verdict  {v.verdict.value}" + (" (safety first)" if v.verdict.value in ("unsafe", "output-not-fully-written") else ""),
              f"result   {v.summary}"]
    for w in v.witnesses[1:6]:
        lines.append(f"         also {w.describe()}")
    lines.append(f"safety   {v.safety.summary()}")
    lines += [f"note     {n}" for n in v.notes]
    return "\n".join(lines)


def register(subparsers) -> None:
    floats = subparsers.add_parser("floats", help="float32 equivalence of CUDA kernels with PyTorch specs")
    sub = floats.add_subparsers(dest="floats_command", metavar="SUBCOMMAND")
    p = sub.add_parser("check", help="check KERNEL.cu against SPEC.py bit-exactly, or the corpus with --all")
    p.add_argument("spec", nargs="?", help="SPEC.py defining program(x, ...), or a KernelBench REFERENCE.py")
    p.add_argument("kernel", nargs="?", help="KERNEL.cu with one __global__ kernel, or a KernelBench ANSWER.py "
                   "(ModelNew with load_inline)")
    p.add_argument("--spec-device", default="cuda", choices=("cuda", "cpu"),
                   help="the device whose PyTorch kernels define the spec (default cuda)")
    p.add_argument("--fma", default="on", choices=("on", "off"), help="FMA contraction (nvcc default: on)")
    p.add_argument("--ftz", default="off", choices=("on", "off"), help="flush subnormals to zero (default: off)")
    p.add_argument("--nan", default="any", choices=("any", "payload"),
                   help="NaN policy: any NaN equals any NaN, or all 32 bits must match")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.add_argument("--lean", metavar="OUT.lean", help="write the Lean text (method or counterexample) here")
    p.add_argument("--all", action="store_true", help="check every kernel of the corpus and write the table")
    p.add_argument("--no-sweep", action="store_true", help="with --all: skip the 2**32 sweeps (sampled verdicts "
                   "only, no 'equivalent'; the table says so)")
    p.add_argument("--corpus", help="corpus folder for --all (default data/floats/corpus)")
    p.add_argument("--out", default=None, help="where --all writes verdicts.json and verdicts.md (default: the "
                   "workspace's floats/; the shipped table is regenerated with --out data/floats)")
    p.add_argument("--workers", type=int, default=2, help="processes for the 2**32 sweep (default 2)")
    p.add_argument("--trials", type=int, default=200, help="block level (reductions, softmax, norms, matmuls): "
                   "random inputs of the float32 witness search (default 200)")
    p.add_argument("--shapes", default=None, help="block level: decide at these input shapes (e.g. 2x259x3 or "
                   "17x19,19x3) instead of the ones chosen from get_inputs")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--progress", action="store_true", help="progress bar even when stderr is not a terminal")
    workspace.add_argument(p)
    from workbench.floats.ptx.cli import add_check_arguments, register_flags

    add_check_arguments(p)
    p.set_defaults(func=run_check)
    t = sub.add_parser("block-table", help="check the block-level answer corpus (reductions, softmax, norms, "
                       "matmuls) and write verdicts.json and verdicts.md")
    t.add_argument("--corpus", default=None, help="answers <N>_<what>.py (default data/floats/kernelbench-block)")
    t.add_argument("--level1", default=None, help="KernelBench level-1 problems (default ../shared/kernelbench/level1 beside the checkout)")
    t.add_argument("--out", default=None, help="where to write the table (default: the workspace's floats/block/)")
    t.add_argument("--trials", type=int, default=200, help="random inputs of each float32 witness search")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.add_argument("--json", action="store_true", help="print the table as JSON on stdout: the document "
                   "written to verdicts.json (workbench.floats-block-table/1) with the verdict ok")
    workspace.add_argument(t)
    t.set_defaults(func=run_block_table)
    register_flags(sub)
    from workbench.floats.coverage import register as register_coverage

    register_coverage(sub)
    floats.set_defaults(func=lambda args: (floats.print_help(), 1)[1])
