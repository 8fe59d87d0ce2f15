"""Block level, the decisions: shapes, the reals, float32, safety -> ``BlockVerdict`` (stage: floats).

1. **Shapes.** Each distinct extent of ``get_inputs``' shapes is mapped to a small one, keeping equal extents
   equal and 1 as 1. A first reading of the host wrapper (no block run) gives the launch's block shape B.
   An extent that the spec reduces over (the dims of sum/mean/max/min/softmax/log_softmax/layer_norm, the
   inner extent of a matmul) becomes ``B+3`` for a 1-D cooperative kernel (shared memory, shuffles or
   atomics), ``max(Bx, By)+3`` for a 2-D block, else 7: every thread has work, some
   threads a second trip and a tail, and the last tile is partial. Kept extents become 2, 3, 5, ... (with a
   2-D block the output's last two extents become ``Bx+2`` and ``By+1``, so that several blocks and a partial
   block run). A second, tiny shape (every extent 2, 3, 4, ...) is decided too.
2. **Reals.** The answer is interpreted with ``domains.Reals`` at each shape; each output element is compared
   with the spec's (``spec.real_outputs``): first structurally (sympy's canonical sums, products, Max/Min),
   then by ``expand``. A difference is a witness only after both sides, with exp/log/sqrt interpreted, are
   evaluated at random inputs and differ there; if they agree, ``simplify`` of the interpreted difference
   may still show equality (identities of exp such as exp(a - m)/exp(b - m) = exp(a)/exp(b)), otherwise the
   result is undecided.
3. **Float32.** ATen's order is not the kernel's for any answer this level has met: no "equivalent" is
   issued for a reduction of more than one element (docs/floats-block.md cites ATen's order per device). For
   spec device cpu the reference Model is run on this machine's CPU for each trial input; the kernel is
   interpreted in float32 over all trials at once (``domains.Float32``); a differing trial is re-run alone,
   both sides, to confirm it. For spec device cuda, ATen's CUDA order (Reduce.cuh) is not emulated: the
   result is undecided.
4. **Safety.** Hazards come from the interpreter (``machine``) at every shape decided, plus output elements
   no thread writes.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sympy

from workbench.floats.block.answer import EntryCall, read_entry
from workbench.floats.block.domains import (EXP, LOG, MAX, MIN, SQRT, TANH, Float32, Reals, extremum, f32_bits,
                                            interpreted, ulp_distance)
from workbench.floats.block.lower import BlockUnsupportedError, Program, lower_source
from workbench.floats.block.machine import ATOMICS, SYNC_CALLS, Machine, MachineError, Memory, Tensor
from workbench.floats.block.spec import cpu_outputs, init_args_at, real_outputs, reference_model
from workbench.floats.block.verdict import (BlockOptions, BlockSafety, BlockVerdict, FloatStatus, FloatVerdict,
                                            FloatWitness, Hazard, HazardKind, RealStatus, RealVerdict, RealWitness)
from workbench.floats.errors import FloatsUsageError
from workbench.floats.progress import Steps

REDUCING = {"aten.sum.dim_IntList", "aten.sum.default", "aten.mean.dim", "aten.amax.default", "aten.amin.default",
            "aten.max.dim", "aten.min.dim", "aten.softmax.int", "aten._softmax.default", "aten.log_softmax.int",
            "aten._log_softmax.default", "aten.layer_norm.default", "aten.instance_norm.default"}
MATMULS = {"aten.matmul.default", "aten.mm.default", "aten.mv.default", "aten.bmm.default"}
POOLS = {f"aten.{kind}_pool{nd}d.default" for kind in ("max", "avg") for nd in (1, 2, 3)}

# ATen's reduction order, per spec device (cited in docs/floats-block.md and in every float32 verdict)
ATEN_ORDER = {
    "cpu": ("ATen CPU, aten/src/ATen/native/cpu/SumKernel.cpp cascade_sum: float32 accumulated in float32; "
            "row_sum keeps 4 interleaved partial sums (ilp_factor 4), each a multi_row_sum cascade of 4 accumulator "
            "levels over chunks of 2**max(4, ceil(log2 n)/4) elements, combined left to right; vectorized_inner_sum "
            "/ vectorized_outer_sum / scalar_outer_sum by the strides, so the order follows the layout and the "
            "Vectorized<float> width; max/min/softmax/log_softmax in ReduceOpsKernel.cpp / SoftMaxKernel.cpp over "
            "Vectorized<float> lanes; matmul through the CPU BLAS (order not in ATen's source). Run here on this "
            "machine's CPU (capability {cap}), which fixes the vector width"),
    "cuda": ("ATen CUDA, aten/src/ATen/native/cuda/Reduce.cuh: setReduceConfig chooses the block shape and split; "
             "each thread accumulates strided elements (input_vectorized_thread_reduce_impl: 4 accumulators over "
             "4-wide vector loads when contiguous, combined left to right), then block_x_reduce (warp shuffles and "
             "shared memory) and block_y_reduce, and global_reduce across blocks when the split requires it; "
             "matmul through cuBLAS (order not in ATen's source)"),
}


@dataclass(frozen=True, slots=True)
class Run:
    """One interpretation: the output elements (domain values, None where never written), hazards, launches."""

    output: list
    shape: tuple[int, ...]
    machine: Machine


class ModelsAt:
    """The reference Model for the shapes being decided, built once per set of init arguments
    (``spec.init_args_at``: a normalized_shape follows the scaled inputs). Called with None it builds the
    Model of ``get_init_inputs()`` itself (a bad reference fails early, before any interpretation)."""

    def __init__(self, problem):
        self.problem = problem
        self.built: dict[tuple, object] = {}

    def __call__(self, shapes):
        args = self.problem.init_args if shapes is None else init_args_at(self.problem, shapes)
        key = repr(args)
        if key not in self.built:
            self.built[key] = reference_model(self.problem, args)
        return self.built[key]


def check_block(reference: Path, answer: Path, options: BlockOptions) -> BlockVerdict:
    from workbench.floats.kernelbench import read_problem

    if options.spec_device not in ("cpu", "cuda"):
        raise FloatsUsageError(f"spec device {options.spec_device!r} is neither cpu nor cuda; pass --spec-device cpu "
                               "or cuda")
    steps = Steps(options.progress)
    with steps.step("reading the KernelBench files, building the reference Model"):
        problem = read_problem(reference)
        entry = read_entry(answer, problem.init_args)
        program = lower_source(answer, entry.cuda)
        model_at = ModelsAt(problem)
        model_at(None)
    if not program.kernels:
        raise BlockUnsupportedError(f"{answer.name} defines no __global__ kernel in its cuda_sources; a KernelBench "
                                    "answer launches one")
    if options.shapes is not None:
        if len(options.shapes) != len(problem.shapes) or any(len(a) != len(b) for a, b in
                                                             zip(options.shapes, problem.shapes)):
            raise FloatsUsageError(f"shapes {list(options.shapes)} do not match get_inputs' "
                                   f"{list(problem.shapes)} in number and rank; give one shape per input tensor")
        shapes_main = shapes_tiny = tuple(tuple(int(d) for d in s) for s in options.shapes)
        why = f"decided at the input shapes given, {_shapes(shapes_main)}; a decision at these shapes, not for all shapes"
    else:
        shapes_main, shapes_tiny, why = choose_shapes(problem, entry, program, model_at, answer)
    notes = [why]
    all_shapes = [shapes_main] + ([shapes_tiny] if shapes_tiny != shapes_main else [])
    reals_runs = []
    hazards: list[Hazard] = []
    launches = []
    for shapes in all_shapes:
        spec_out, ops = real_outputs(model_at(shapes), shapes, reference.name)
        with steps.step(f"interpreting every thread over the reals at {_shapes(shapes)}"):
            run = interpret(program, entry, shapes, Reals(), answer)
        reals_runs.append((shapes, spec_out, run))
        hazards += [h for h in run.machine.hazards if h not in hazards]
        launches += [f"{_shapes(shapes)}: " + ", ".join(f"{l.kernel}<<<{_dim(l.grid)}, {_dim(l.block)}"
                                                           f"{', ' + str(l.shmem) if l.shmem else ''}>>>"
                                                           for l in run.machine.launches)]
        hazards += unwritten(run, shapes)
    kernel = run.machine.launches[0].kernel if run.machine.launches else program.kernels[0]
    safety = BlockSafety(tuple(hazards), "every thread of every block interpreted, launch by launch: "
                         + "; ".join(launches))
    with steps.step("deciding over the reals"):
        reals = decide_reals(reals_runs, ops)
    with steps.step(f"float32 search ({options.trials} trials)"):
        f32 = decide_float32(program, entry, shapes_main, model_at(shapes_main), options, answer,
                             run_main=reals_runs[0][2])
    return BlockVerdict(str(reference), str(answer), kernel, reals, f32, safety, options, tuple(notes))


def check_safety(reference: Path, answer: Path, options: BlockOptions) -> BlockSafety:
    """Shared-memory safety alone (no semantic decision, no spec run beyond export for the shapes): every
    thread of every block interpreted at the chosen shapes (or ``options.shapes``)."""
    from workbench.floats.kernelbench import read_problem

    problem = read_problem(reference)
    entry = read_entry(answer, problem.init_args)
    program = lower_source(answer, entry.cuda)
    if options.shapes is not None:
        shapes_all = [tuple(tuple(int(d) for d in s) for s in options.shapes)]
    else:
        main, tiny, _ = choose_shapes(problem, entry, program, ModelsAt(problem), answer)
        shapes_all = [main] + ([tiny] if tiny != main else [])
    hazards: list[Hazard] = []
    launches = []
    for shapes in shapes_all:
        run = interpret(program, entry, shapes, Reals(), answer)
        hazards += [h for h in run.machine.hazards if h not in hazards] + unwritten(run, shapes)
        launches.append(f"{_shapes(shapes)}: " + ", ".join(f"{l.kernel}<<<{_dim(l.grid)}, {_dim(l.block)}>>>"
                                                           for l in run.machine.launches))
    return BlockSafety(tuple(hazards), "every thread of every block interpreted, launch by launch: "
                       + "; ".join(launches))


def _shapes(shapes) -> str:
    return ", ".join("(" + ", ".join(map(str, s)) + ")" for s in shapes)


def _dim(d) -> str:
    d = tuple(d)
    while len(d) > 1 and d[-1] == 1:
        d = d[:-1]
    return str(d[0]) if len(d) == 1 else "(" + ", ".join(map(str, d)) + ")"


# -- running the answer

def interpret(program: Program, entry: EntryCall, shapes, domain, answer: Path, advance=None, inputs=None,
              dry: bool = False) -> Run:
    """Run the answer's host function on input tensors of ``shapes`` holding ``inputs`` (domain values per
    element; default: the real symbols ``x{k}_{i}``)."""
    from workbench.floats.block.spec import symbols

    m = Machine(program, domain, answer.name)
    m.on_block = advance
    m.dry = dry
    if inputs is None:
        inputs = [list(a.reshape(-1)) for a in symbols(shapes)]
    tensors = [Tensor(tuple(s), Memory(f"x{k}", "global", list(vals), "f32", bytearray(b"\x01" * len(vals))))
               for k, (s, vals) in enumerate(zip(shapes, inputs))]
    args = []
    for kind, v in entry.args:
        if kind == "input":
            if v >= len(tensors):
                raise FloatsUsageError(f"ModelNew.forward passes its parameter {v} but get_inputs returns "
                                       f"{len(tensors)} tensors; fix the answer's forward")
            args.append(tensors[v])
        else:
            args.append(v)
    try:
        result = m.run(entry.entry, args)
    except MachineError as exc:
        raise BlockUnsupportedError(str(exc), construct=str(exc).split(" at ")[0], line=exc.line) from None
    except RecursionError:
        raise BlockUnsupportedError(f"recursion too deep while interpreting {entry.entry} in {answer.name}; "
                                    "the block level does not model recursive helpers") from None
    if dry:
        return Run([], (), m)
    if isinstance(result, (tuple, list)):
        result = result[0] if result else None
    if not isinstance(result, Tensor):
        raise BlockUnsupportedError(f"{entry.entry} in {answer.name} does not return a tensor it created; return the "
                                    "output tensor", construct="wrapper result")
    if not m.launches:
        raise BlockUnsupportedError(f"{entry.entry} in {answer.name} launches no kernel at shapes {_shapes(shapes)}",
                                    construct="launch")
    out = [v if w else None for v, w in zip(result.mem.values, result.mem.written)]
    return Run(out, result.shape, m)


def unwritten(run: Run, shapes) -> list[Hazard]:
    missing = [i for i, v in enumerate(run.output) if v is None]
    if not missing:
        return []
    idx = tuple(int(x) for x in np.unravel_index(missing[0], run.shape))
    return [Hazard(HazardKind.NOT_WRITTEN, f"no thread writes output element {list(idx)} (nor {len(missing) - 1} "
                   f"others of {len(run.output)}) at input shapes {_shapes(shapes)}", array="output",
                   address=missing[0])]


def uses_cooperation(program: Program) -> bool:
    def visit(c) -> bool:
        if c.kind == "decl" and c.value[1]:
            return True
        if c.kind == "call" and (c.name in SYNC_CALLS or c.name in ATOMICS):
            return True
        return any(visit(k) for k in c.kids)
    return any(visit(fn) for name, fn in program.functions.items() if not name.startswith("$"))


def _export_probe(model_at, problem):
    """The Model exported at a probe shape (each distinct extent a distinct small number) and the probe's
    extent map; a pooling window longer than the first probe is met by larger probes."""
    import torch

    values = sorted({d for s in problem.shapes for d in s if d != 1})
    for base in (3, 40, 200):
        probe_of = {v: base + k for k, v in enumerate(values)}
        probe = tuple(tuple(probe_of.get(d, 1) for d in s) for s in problem.shapes)
        try:
            return torch.export.export(model_at(probe), tuple(torch.zeros(s) for s in probe)), probe, probe_of
        except Exception:
            continue
    probe_of = {v: 3 + k for k, v in enumerate(values)}
    return None, tuple(tuple(probe_of.get(d, 1) for d in s) for s in problem.shapes), probe_of


def _reduced_dims(name: str, node, shp: tuple[int, ...]) -> list[int]:
    """The dims of the input that one reducing op combines (the normalised dims for the norms)."""
    if name == "aten.instance_norm.default":
        return list(range(2, len(shp)))
    dims = node.args[1] if len(node.args) > 1 else list(range(len(shp)))
    if name.startswith("aten.layer_norm"):
        return list(range(len(shp) - len(dims), len(shp)))
    return [d % len(shp) for d in ([dims] if isinstance(dims, int) else list(dims) or list(range(len(shp))))]


JOINT_CAP = 30  # elements of a reduction over several dims at the main shape (below B+3 for B > 27: said in `why`)


def _root_at_least(r: int, c: int) -> int:
    """The least m with m**c >= r: c jointly reduced extents of m each give every thread an element."""
    m = max(2, round(r ** (1 / c)))
    while m ** c < r:
        m += 1
    return m


def _distinct(of: dict[int, int], values: list[int], window: dict[int, tuple[int, int]]) -> dict[int, int]:
    """``of`` made one-to-one: extents that differ in the problem differ at the decided shape too (otherwise an
    answer that reads one extent for another is right there and wrong at the problem's own shape). A value
    that collides with an earlier one is moved up: by its stride when it is pooled (its residue modulo the
    stride is kept), else by one."""
    out: dict[int, int] = {}
    taken: set[int] = set()
    for v in values:
        if v not in of:
            continue
        x = of[v]
        step = window[v][1] if v in window else 1
        while x in taken:
            x += step
        out[v] = x
        taken.add(x)
    return out


def choose_shapes(problem, entry: EntryCall, program: Program, model_at, answer: Path):
    from workbench.floats.block.spec import _pool_params

    values = sorted({d for s in problem.shapes for d in s if d != 1})
    ep, probe, probe_of = _export_probe(model_at, problem)
    back = {p: v for v, p in probe_of.items()}
    # which extents the spec reduces over (and how many dims each reduction combines), and which it pools
    # (with the window each pooled extent needs), read from the exported graph's shapes
    joint: dict[int, int] = {}
    window: dict[int, tuple[int, int]] = {}  # extent -> (window length, stride)
    reduced: set[int] = set()
    if ep is not None:
        for node in ep.graph.nodes:
            name = str(node.target)
            if node.op != "call_function" or not node.args or not hasattr(node.args[0], "meta"):
                continue
            val = node.args[0].meta.get("val")
            if val is None or not hasattr(val, "shape"):
                continue
            shp = tuple(int(x) for x in val.shape)
            if name in REDUCING:
                dims = [d for d in _reduced_dims(name, node, shp) if shp[d] in back]
                for d in dims:
                    reduced.add(back[shp[d]])
                    joint[back[shp[d]]] = max(joint.get(back[shp[d]], 1), len(dims))
            elif name in MATMULS:
                if shp[-1] in back:
                    reduced.add(back[shp[-1]])
            elif name in POOLS:
                nd = int(name.split("pool")[1][0])
                a = list(node.args) + [None] * 6
                dil = a[4] if name.startswith("aten.max_pool") else 1
                for i, (k, st, pd, dl) in enumerate(_pool_params(nd, a[1], a[2], a[3] or 0, dil or 1)):
                    e = shp[len(shp) - nd + i]
                    if e in back:
                        w = max(1, dl * (k - 1) + 1 - 2 * pd)
                        old = window.get(back[e], (0, 1))
                        window[back[e]] = (max(old[0], w), max(old[1], st))
    dry = interpret(program, entry, probe, Reals(), answer, dry=True)
    blk = dry.machine.launches[0].block if dry.machine.launches else (256, 1, 1)
    bx, by = blk[0], blk[1]
    two_d = by > 1
    coop = uses_cooperation(program)
    if two_d:
        r = max(bx, by) + 3
    elif coop:
        b = bx * by * blk[2]
        r = b + 3
    else:
        r = 7
    small = iter([2, 3, 5, 6, 9, 10, 11])
    main_of = {}
    out_val = ep.graph_module.graph.find_nodes(op="output")[0].args[0][0].meta.get("val") if ep is not None else None
    out_shape = tuple(int(x) for x in out_val.shape) if hasattr(out_val, "shape") else ()
    kept_2d = {}
    if two_d and len(out_shape) >= 2:
        kept_2d = {back.get(out_shape[-1]): bx + 2, back.get(out_shape[-2]): by + 1}
    pooled = [v for v in values if v in window]
    for v in values:
        if v in window:  # a pooled extent: the window fits, and three more outputs follow the first; one
            # more element so that a stride > 1 does not divide it exactly (floor and ceil mode then differ),
            # and j strides more for the j-th pooled extent, so distinct extents stay distinct (red team:
            # 128 x 128 x 256 decided as cubes hid an answer that took the width from the height)
            w, st = window[v]
            main_of[v] = w + 3 * st + 1 + pooled.index(v) * st
        elif v in reduced:  # dims reduced jointly (a norm over (H, W)) share the target; the symbolic cost of a
            # normalisation grows with the square of its extent, so a joint one is held to JOINT_CAP elements
            c = joint.get(v, 1)
            main_of[v] = _root_at_least(r if c == 1 else min(r, JOINT_CAP), c)
        elif v in kept_2d:
            main_of[v] = kept_2d[v]
        else:
            main_of[v] = next(small)
    main_of = _distinct(main_of, values, window)
    main = tuple(tuple(main_of.get(d, 1) for d in s) for s in problem.shapes)
    tiny_of = {v: 2 + k for k, v in enumerate(values)}
    for v, (w, st) in window.items():  # a pooled extent: the window and one more output (off the stride)
        tiny_of[v] = w + st + 1 + pooled.index(v) * st if v in pooled else w + st
    tiny_of = _distinct(tiny_of, values, window)
    tiny = tuple(tuple(tiny_of.get(d, 1) for d in s) for s in problem.shapes)
    why = (f"decided at input shapes {_shapes(main)} and {_shapes(tiny)} (get_inputs: {_shapes(problem.shapes)}, scaled "
           f"down: reduced extents {sorted(main_of[v] for v in reduced) or 'none'} from the launch's block "
           f"{_dim(blk)}, so that every thread works, threads take a second trip and a tail, and the last tile or "
           "block is partial" + ("; a reduction over several dims is held to about "
                                 f"{JOINT_CAP} elements, so not every thread takes a second trip there"
                                 if any(joint.get(v, 1) > 1 for v in reduced) else "")
           + "); a decision at these shapes, not for all shapes")
    return main, tiny, why


# -- over the reals

_interpreted = interpreted


def decide_reals(runs, ops) -> RealVerdict:
    shapes_all = tuple(s for shapes, _, _ in runs for s in shapes)
    how = ("sympy, each output element as an expression of the input elements (sums and products up to "
           "reassociation and commutation, max/min as Max/Min, exp/log/sqrt as uninterpreted functions; rsqrt as "
           "1/sqrt); spec from torch.export of Model.forward (" + ", ".join(ops) + ")")
    undecided = None
    memo: dict = {}  # canonical forms of uninterpreted functions' arguments, by content, for this decision only
    for shapes, spec_out, run in runs:
        spec_flat = list(spec_out.reshape(-1))
        if len(spec_flat) != len(run.output):
            return RealVerdict(RealStatus.NOT_EQUIVALENT, f"not equivalent over the reals at input shapes "
                               f"{_shapes(shapes)}: the kernel's output has {len(run.output)} elements "
                               f"(shape {run.shape}), the spec's {len(spec_flat)} (shape {spec_out.shape})", how,
                               shapes_all)
        for i, (k, s) in enumerate(zip(run.output, spec_flat)):
            if k is not None and (k == s or _same(k, s, memo)):
                continue
            idx = tuple(int(x) for x in np.unravel_index(i, spec_out.shape))
            if k is None:
                return RealVerdict(RealStatus.NOT_EQUIVALENT, f"not equivalent over the reals at input shapes "
                                   f"{_shapes(shapes)}: output element {list(idx)} is never written (it keeps "
                                   "torch::empty's garbage); a decision at these shapes", how, shapes_all,
                                   RealWitness(idx, "(never written)", _short(s)))
            w = _separate(k, s)
            if w is not None:
                vals, kv, sv = w
                names = _index_names(shapes)
                kt, st_, dt = (_short(e.xreplace(names)) for e in (k, s, _difference(k, s)))
                vals = tuple((str(names.get(sympy.Symbol(n, real=True), n)), x) for n, x in vals)
                return RealVerdict(RealStatus.NOT_EQUIVALENT, f"not equivalent over the reals at input shapes "
                                   f"{_shapes(shapes)}: output element {list(idx)} differs, kernel - spec = {dt} "
                                   f"(at the input values given: {kv:.9g} vs {sv:.9g}); a decision at these shapes, "
                                   "not for all shapes", how, shapes_all,
                                   RealWitness(idx, kt, st_, vals, kv, sv))
            same = False
            if not any(e.has(f) for e in (k, s) for f in (MAX, MIN)) and sympy.count_ops(k) + sympy.count_ops(s) < 2000:
                try:  # identities of the interpreted functions (exp(a - m) / exp(b - m) = exp(a) / exp(b))
                    same = sympy.simplify(_interpreted(k) - _interpreted(s)) == 0
                except (TypeError, ValueError, RecursionError):
                    same = False
            if not same and undecided is None:
                undecided = (shapes, idx, k, s)
    if undecided is not None:
        shapes, idx, k, s = undecided
        return RealVerdict(RealStatus.UNDECIDED, f"undecided over the reals at input shapes {_shapes(shapes)}: output "
                           f"element {list(idx)} differs as a term (kernel {_short(k)} vs spec {_short(s)}) but agrees "
                           "numerically at random inputs and sympy's simplify does not show it equal", how, shapes_all,
                           RealWitness(idx, _short(k), _short(s)))
    return RealVerdict(RealStatus.EQUIVALENT, f"equivalent over the reals at input shapes "
                       f"{', '.join(_shapes(sh) for sh, _, _ in runs)}: every output element of the kernel equals the "
                       "spec's as a real expression of the inputs; a decision at these shapes, not for all shapes",
                       how, shapes_all)


FLT_MAX = sympy.Rational(float(np.finfo(np.float32).max))


def _bounded(e) -> sympy.Expr:
    """Inputs are finite float32 values, so -FLT_MAX <= x <= FLT_MAX: a Max over input symbols (and Max/Min of
    them) does not change when -FLT_MAX is dropped, nor a Min when FLT_MAX is (the usual starts of max/min
    reductions written with FLT_MAX)."""
    def plain(a) -> bool:
        return a.is_Symbol or (isinstance(a, sympy.Expr) and a.func in (MAX, MIN) and all(plain(x) for x in a.args))

    def fix(m):
        keep = [a for a in m.args if not (a.is_Number and ((m.func == MAX and a <= -FLT_MAX) or
                                                          (m.func == MIN and a >= FLT_MAX)))]
        if len(keep) < len(m.args) and keep and all(plain(a) for a in keep):
            return extremum(m.func, keep)
        return m
    if not (e.has(MAX) or e.has(MIN)):
        return e
    return e.replace(lambda x: isinstance(x, sympy.Expr) and x.func in (MAX, MIN), fix)


_UNINTERPRETED = (SQRT, EXP, LOG, TANH)


def _canon_args(e, memo: dict):
    """``e`` with the argument of each uninterpreted function (sqrt, exp, log, tanh) expanded, memoised by content:
    a norm's variance appears under one sqrt in every element of its row, and expanding it once per row (not
    once per element) is what keeps instance and layer norms decidable in seconds. Expansion is an identity of
    polynomials, so f(expand(a)) names the same real function as f(a)."""
    if not any(e.has(f) for f in _UNINTERPRETED):
        return e

    def fix(x):
        out = memo.get(x)
        if out is None:
            out = memo[x] = x.func(sympy.expand(x.args[0]))
        return out
    return e.replace(lambda x: isinstance(x, sympy.Expr) and x.func in _UNINTERPRETED, fix)


def _same(k, s, memo: dict | None = None) -> bool:
    """k and s are the same real function: structurally after the FLT_MAX rule, structurally once the
    arguments of uninterpreted functions are expanded, or after expansion when both are small enough for it
    (a large non-polynomial pair is left to the numeric separation)."""
    b = _bounded(k)
    if b == s:
        return True
    if memo is not None:
        b, s = _canon_args(b, memo), _canon_args(s, memo)
        if b == s:
            return True
    if sympy.count_ops(b) + sympy.count_ops(s) > 4000 and (b.has(sympy.Function) or s.has(sympy.Function)):
        return False
    return sympy.expand(b - s) == 0


def _index_names(shapes) -> dict:
    """x{k}_{i} -> a symbol printed as the tensor element it is: x (one input) or x0, x1 ..., indexed."""
    out = {}
    for k, shp in enumerate(shapes):
        base = "x" if len(shapes) == 1 else f"x{k}"
        for i in range(math.prod(shp)):
            idx = ", ".join(str(int(j)) for j in np.unravel_index(i, shp))
            out[sympy.Symbol(f"x{k}_{i}", real=True)] = sympy.Symbol(f"{base}[{idx}]")
    return out


def _difference(k, s):
    d = sympy.expand(k - s) if sympy.count_ops(k) + sympy.count_ops(s) < 4000 else k - s
    return d


def _short(e, limit: int = 160) -> str:
    t = str(e)
    return t if len(t) <= limit else t[:limit] + f"... ({len(t)} chars)"


def _separate(k, s, tries: int = 6):
    """Random real inputs where the two (exp/log/sqrt/max/min interpreted) differ: (values, k, s), or None.
    Inputs are drawn from (0, 2), (-2, 2) and (-2, 0) in turn; numbers are substituted before the functions are
    interpreted (sympy's Max of symbols is slow to build)."""
    syms = sorted(k.free_symbols | s.free_symbols, key=lambda x: x.name)
    rng = random.Random(0)
    for t in range(tries):
        lo, hi = ((1, 1999), (-1999, 1999), (-1999, -1))[t % 3]
        sub = {x: sympy.Rational(rng.randint(lo, hi), 1000) for x in syms}
        try:
            kv = complex(_interpreted(k.xreplace(sub)).evalf(30))
            sv = complex(_interpreted(s.xreplace(sub)).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if abs(kv - sv) > 1e-12 * max(1.0, abs(kv), abs(sv)):
            first = _difference(k, s).free_symbols
            order = sorted(sub, key=lambda x: (x not in first, x.name))
            return tuple((x.name, float(sub[x])) for x in order), kv.real, sv.real
    return None


# -- over float32

def trial_inputs(shapes, trials: int, seed: int) -> list[np.ndarray]:
    """Per input tensor: (numel, trials) float32. Trials cycle through uniform [0, 1) (KernelBench's
    torch.rand), standard normal, wide exponents (sign * 2**U(-30, 30) * U[1, 2)) and mixed magnitudes with
    special values (NaN, +-inf, +-0) sprinkled in."""
    rng = np.random.default_rng(seed)
    out = []
    for s in shapes:
        n = math.prod(s)
        a = np.empty((n, trials), dtype=np.float32)
        for t in range(trials):
            match t % 4:
                case 0:
                    a[:, t] = rng.random(n, dtype=np.float32)
                case 1:
                    a[:, t] = rng.standard_normal(n).astype(np.float32)
                case 2:
                    a[:, t] = (rng.choice([-1.0, 1.0], n) * 2.0 ** rng.uniform(-30, 30, n) *
                               rng.uniform(1, 2, n)).astype(np.float32)
                case _:
                    col = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(np.float32)
                    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], dtype=np.float32)
                    pick = rng.random(n) < 0.05
                    col[pick] = rng.choice(specials, int(pick.sum()))
                    a[:, t] = col
        out.append(a)
    return out


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


def decide_float32(program, entry, shapes, model, options: BlockOptions, answer: Path, run_main: Run) -> FloatVerdict:
    import torch

    cap = torch.backends.cpu.get_cpu_capability()
    order = ATEN_ORDER[options.spec_device].format(cap=cap)
    sem = options.semantics
    if options.spec_device == "cuda":
        return FloatVerdict(FloatStatus.UNDECIDED, "undecided over float32 for spec device cuda: ATen's CUDA order "
                            "is not emulated here, so neither equality nor a confirmed witness can be given; rerun "
                            "with --spec-device cpu for a witness against ATen's CPU order", f"spec order: {order}",
                            sem, shapes=shapes)
    trials = options.trials
    xs = trial_inputs(shapes, trials, options.seed)
    dom = Float32(trials, options.fma, options.ftz)
    run = interpret(program, entry, shapes, dom, answer, inputs=[[row for row in x] for x in xs])
    n_out = len(run.output)
    if any(v is None for v in run.output):
        return FloatVerdict(FloatStatus.NOT_EQUIVALENT, "not equivalent over float32: some output elements are never "
                            "written (see safety)", "the block interpreter", sem, shapes=shapes)
    kern = np.stack([dom.convert(v, "f32") for v in run.output])  # (n_out, trials)
    spec = np.stack([cpu_outputs(model, [x[:, t].reshape(s) for x, s in zip(xs, shapes)]).reshape(-1)
                     for t in range(trials)], axis=1)
    if spec.shape[0] != n_out:
        return FloatVerdict(FloatStatus.NOT_EQUIVALENT, f"not equivalent over float32: the kernel writes {n_out} "
                            f"elements, the spec {spec.shape[0]}", "shape comparison", sem, shapes=shapes)
    kb, sb = _bits(kern), _bits(spec)
    both_nan = np.isnan(kern) & np.isnan(spec)
    differ = (kb != sb) & ~both_nan
    nan_mismatch = np.isnan(kern) ^ np.isnan(spec)
    ordered = lambda b: np.where(b & 0x80000000, -(b & 0x7FFFFFFF).astype(np.int64) - 1, b.astype(np.int64))  # noqa
    ulps = np.abs(ordered(kb) - ordered(sb))
    ulps = np.where(differ & ~nan_mismatch, ulps, 0)
    bad_trials = np.flatnonzero(differ.any(axis=0))
    contraction = "fma contraction of a product feeding an add" if options.fma else "no fma contraction"
    atomics = (f"; float atomics serialised in thread order at line(s) {sorted(run.machine.float_atomics)}, one of "
               "the orders the hardware may choose") if run.machine.float_atomics else ""
    how_kernel = (f"the kernel interpreted in float32 in the order it writes ({contraction}, "
                  f"{'ftz' if options.ftz else 'subnormals kept'}{atomics})")
    how_spec = f"the reference Model run on this machine's CPU in float32 ({cap})"
    decided = f"witness search over {trials} random inputs at input shapes {_shapes(shapes)}; spec order: {order}"
    stand = sorted(dom.stand_ins)
    if not len(bad_trials) and stand:
        return FloatVerdict(FloatStatus.UNDECIDED, f"undecided over float32: the kernel calls {', '.join(stand)}, whose "
                            "device bits are not modelled (binary64 rounded to float32 stands in); with that stand-in "
                            f"no differing input was found in {trials} trials at input shapes {_shapes(shapes)}",
                            decided, sem, None, trials, 0, 0, shapes)
    if not len(bad_trials):
        status = FloatStatus.NOT_SHOWN
        return FloatVerdict(status, f"not shown equivalent over float32; no differing input found in {trials} trials "
                            f"at input shapes {_shapes(shapes)} (not a proof: ATen's order is not shown to be the "
                            "kernel's)", decided, sem, None, trials, 0, 0, shapes)
    worst = int(ulps.max())
    t = int(bad_trials[0])
    col = ulps[:, t]
    e = int(np.argmax(col)) if col.max() > 0 else int(np.flatnonzero(differ[:, t])[0])
    # confirm: the witness input alone, both sides evaluated again
    one = [x[:, t:t + 1] for x in xs]
    dom1 = Float32(1, options.fma, options.ftz)
    run1 = interpret(program, entry, shapes, dom1, answer, inputs=[[row for row in x] for x in one])
    k1 = f32_bits(dom1.convert(run1.output[e], "f32")[0])
    s1 = f32_bits(cpu_outputs(model, [x[:, 0].reshape(s) for x, s in zip(one, shapes)]).reshape(-1)[e])
    confirmed = k1 == int(kb[e, t]) and s1 == int(sb[e, t]) and k1 != s1
    idx = tuple(int(i) for i in np.unravel_index(e, run.shape))
    w = FloatWitness(tuple(tuple(int(b) for b in _bits(x[:, 0])) for x in one), idx, k1, s1, ulp_distance(k1, s1),
                     f"{how_kernel}; {how_spec}; the witness input re-run alone on both sides"
                     + ("" if confirmed else " DID NOT reproduce the search's bits"))
    kinds = f"{len(bad_trials)} of {trials} trials differ; the worst distance found is {worst} ulp" + \
        (" (and NaN against a number)" if nan_mismatch.any() else "")
    if stand:
        return FloatVerdict(FloatStatus.UNDECIDED, f"undecided over float32: the kernel calls {', '.join(stand)}, "
                            "whose device bits are not modelled (binary64 rounded to float32 stands in); with that "
                            f"stand-in, output {list(idx)} differs by {w.ulp} ulp ({kinds})", decided, sem, w, trials,
                            len(bad_trials), worst, shapes)
    if not confirmed:
        return FloatVerdict(FloatStatus.UNDECIDED, f"undecided over float32: the search found a difference at output "
                            f"{list(idx)} but re-running the witness alone did not reproduce it", decided, sem, w,
                            trials, len(bad_trials), worst, shapes)
    return FloatVerdict(FloatStatus.NOT_EQUIVALENT, f"not equivalent over float32 ({sem}): at a witness input of "
                        f"shapes {_shapes(shapes)}, output {list(idx)} is {w.describe().split(': ', 1)[1]}; {kinds}; "
                        "confirmed by evaluating both sides again on that input alone", decided, sem, w, trials,
                        len(bad_trials), worst, shapes)


__all__ = ["ATEN_ORDER", "check_block", "check_safety", "choose_shapes", "decide_float32", "decide_reals", "interpret",
           "trial_inputs"]
