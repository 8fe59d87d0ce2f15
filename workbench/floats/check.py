"""Verdicts: is a CUDA kernel's elementwise function the PyTorch spec's, bit for bit? (stage: floats)

``check(spec, kernel, target, nan)`` decides, in this order:

1. Transcendentals (OPAQUE nodes) on either side: "undecided: depends on <op> on the device" (or "in
   PyTorch"); the float32 model cannot say what ``expf`` returns, so nothing is claimed either way.
2. Shape: every store is ``out[i] = f(in0[i], ...)`` for the launch (``gate.element_functions``).
3. Case split over float classes (NaN payloads, +-0, +-inf, subnormal and normal boundaries, the
   constants of both sides and their neighbours) plus, for n-ary kernels, random and adversarial inputs.
4. Unary kernels: all 2**32 inputs (``sweep.sweep_unary``): "equivalent" or the exact mismatch count.
   n-ary kernels: "equivalent" only when the element function *is* the spec's expression node for node under
   the same semantics (ftz off, any-NaN policy: one deterministic function of the inputs); otherwise
   "no counterexample in N cases" at best.

Every reported counterexample is re-evaluated with the gmpy2 reference (``reference.evaluate_scalar``);
a disagreement with the vectorized evaluator is a bug and raises.

Device semantics (``Target``): FMA contraction on (nvcc's default ``-fmad=true``) rewrites the kernel with
``ir.contract_fma``; FTZ flushes subnormals (``-ftz=true``). The spec is PyTorch on ``spec.device`` (cuda by
default: the kernel replaces PyTorch's CUDA kernel; cpu on request), each op modelled as ATen implements it
there (``aten.py``), never flushed. The safety gate (``gate.gate``) is part of every verdict, and the one
overall verdict orders safety first (``workbench.contract.overall``): unsafe > not-equivalent > undecided >
no-counterexample > equivalent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from workbench import contract
from workbench.floats import standins, typed
from workbench.floats.cuda import Kernel, parse_kernel
from workbench.floats.errors import FloatsUsageError
from workbench.floats.evaluate import HOST, Semantics, evaluate
from workbench.floats.gate import GATE_SIZES, Safety, Shape, element_functions, gate
from workbench.floats.progress import QUIET, Steps
from workbench.floats.outputs import combine
from workbench.floats.ir import Node, Op, Ty, contract_fma, opaque_names, walk
from workbench.floats.reference import evaluate_scalar, f32_bits, f32_from_bits
from workbench.floats.spec import Spec, capture_spec
from workbench.floats.sweep import same, signed_class, sweep_unary

NAN_POLICIES = ("any", "payload")
RANDOM_CASES = 1 << 20
SEED = 20260  # fixed: verdicts and witnesses are reproducible

# Special float32 patterns in the order witnesses are preferred (report 3 shows the default quiet NaN first).
SPECIAL_BITS = (
    0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FA00000,  # NaNs: quiet, signalling, payloads
    0x00000000, 0x80000000,  # +0, -0
    0x7F800000, 0xFF800000,  # +inf, -inf
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000,  # subnormals
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,  # smallest/largest normals
    0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x40000000, 0xC0000000, 0x3F000000, 0xBF000000,
    0x40400000, 0xC0400000, 0x40C00000, 0xC0C00000, 0x33800000, 0x34000000, 0x4B800000, 0xCB800000,
)


@dataclass(frozen=True, slots=True)
class Target:
    fma: bool = True
    ftz: bool = False

    @property
    def label(self) -> str:
        return f"fma={'on' if self.fma else 'off'} ftz={'on' if self.ftz else 'off'}"

    def semantics(self, nan: str) -> Semantics:
        return Semantics(ftz=self.ftz, canonical_nan=nan == "payload")


@dataclass(frozen=True, slots=True)
class Witness:
    inputs: tuple[int, ...]  # bit patterns in each argument's format (float32, or 16-bit half/bfloat16)
    kernel: int  # kernel output bits (in the output's format)
    spec: int  # spec output bits
    function: int = 0  # which of the kernel's element functions (store sites)
    in_tys: tuple[Ty, ...] = ()  # formats of the inputs (empty: all float32)
    out_ty: Ty = Ty.F32

    def ty(self, i: int) -> Ty:
        return self.in_tys[i] if self.in_tys else Ty.F32

    def describe(self) -> str:
        def show(b: int, ty: Ty) -> str:
            return f"{typed.show_bits(b, ty)} ({_pretty(b, ty)})"

        ins = ", ".join(show(b, self.ty(i)) for i, b in enumerate(self.inputs))
        return f"input {ins}: kernel {show(self.kernel, self.out_ty)}, spec {show(self.spec, self.out_ty)}"


def _pretty(bits: int, ty: Ty = Ty.F32) -> str:
    v = typed.value_of(bits, ty)
    neg = bits >> (ty.bits - 1)
    if v != v:
        return ("-" if neg else "") + "NaN"
    if v == 0:
        return "-0.0" if neg else "+0.0"
    return repr(float(np.float32(v)))


# semantic status -> the project's verdict vocabulary
SEMANTIC = {"equivalent": contract.Verdict.EQUIVALENT, "not equivalent": contract.Verdict.NOT_EQUIVALENT,
            "no counterexample": contract.Verdict.NO_COUNTEREXAMPLE, "undecided": contract.Verdict.UNDECIDED,
            "not elementwise": contract.Verdict.OUT_OF_CLASS}


@dataclass(frozen=True, slots=True)
class Verdict:
    spec: str
    kernel: str  # the CUDA function's name
    target: Target
    nan: str
    status: str  # semantic result: "equivalent" | "not equivalent" | "no counterexample" | "undecided" | "not elementwise"
    summary: str
    safety: Safety
    spec_device: str = "cuda"
    witnesses: tuple[Witness, ...] = ()
    mismatches: int | None = None  # exact count over all 2**32 inputs (unary sweeps only)
    cases: int = 0
    exhaustive: bool = False
    opaque: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()  # rendered element functions, as checked (after contraction)
    spec_text: str = ""
    notes: tuple[str, ...] = field(default=())
    lines: tuple[int, ...] = ()  # kernel source lines of the stores the first witness refutes
    max_ulp: int | None = None  # undecided: largest ulp distance with correctly rounded stand-ins

    @property
    def verdict(self) -> contract.Verdict:
        """The one verdict, safety first: an unsafe kernel is unsafe whatever its semantic result; a safe kernel
        that leaves an output element unwritten is "output not fully written" whatever its semantic result."""
        return contract.overall([SEMANTIC[self.status]] + ([] if self.safety.safe else [contract.Verdict.UNSAFE]) +
                                ([] if self.safety.complete else [contract.Verdict.NOT_FULLY_WRITTEN]))

    @property
    def accepted(self) -> bool:
        return self.verdict in contract.ACCEPTED

    def as_dict(self) -> dict:
        return {
            "verdict": self.verdict.value, "spec_device": self.spec_device,
            "spec": self.spec, "cuda_function": self.kernel, "target": self.target.label, "fma": self.target.fma,
            "ftz": self.target.ftz, "nan": self.nan, "status": self.status, "summary": self.summary,
            "accepted": self.accepted, "exhaustive": self.exhaustive, "cases": self.cases,
            "mismatches": self.mismatches, "opaque": list(self.opaque),
            "witnesses": [{"inputs": [typed.show_bits(b, w.ty(i)) for i, b in enumerate(w.inputs)],
                           "kernel": typed.show_bits(w.kernel, w.out_ty), "spec": typed.show_bits(w.spec, w.out_ty),
                           "function": w.function, "text": w.describe()}
                          for w in self.witnesses],
            "safety": {"safe": self.safety.safe, "complete": self.safety.complete, "summary": self.safety.summary(),
                       "findings": [f.describe() for f in self.safety.findings]},
            "functions": list(self.functions), "spec_expr": self.spec_text, "notes": list(self.notes),
            "lines": list(self.lines), "max_ulp": self.max_ulp,
        }


def _constants(*nodes: Node) -> list[int]:
    out = []
    for root in nodes:
        for n in walk(root):
            if n.op is Op.CONST and n.ty.is_float:
                b = f32_bits(float(np.float32(n.value)))
                out += [b, (b + 1) & 0xFFFFFFFF, (b - 1) & 0xFFFFFFFF, b ^ 0x80000000]
    return out


def case_inputs(arity: int, consts: list[int], rng: np.random.Generator, random_cases: int) -> list[np.ndarray]:
    """Special values (full grid for arity <= 3) then random bit patterns, random 'nice' values and
    adversarial pairs (equal magnitudes, opposite signs, one-ulp neighbours)."""
    base = list(dict.fromkeys(list(SPECIAL_BITS) + consts))
    vals = np.array(base, dtype=np.uint32)
    if arity == 1:  # specials, then random bit patterns and random normal values (the sweep does the rest)
        rand = rng.integers(0, 1 << 32, random_cases, dtype=np.uint64).astype(np.uint32)
        return [np.concatenate([vals, rand, np.float32(rng.normal(0, 4, random_cases)).view(np.uint32)])]
    k = len(vals) if arity == 2 else min(len(vals), 24)
    grids = np.meshgrid(*([vals[:k]] * arity), indexing="ij")
    cols = [g.reshape(-1) for g in grids]
    r = random_cases
    rand = [rng.integers(0, 1 << 32, r, dtype=np.uint64).astype(np.uint32) for _ in range(arity)]
    nice = [np.float32(rng.normal(0, 4, r)).view(np.uint32) for _ in range(arity)]
    # adversarial: argument 1 derived from argument 0 (same value, negation, one ulp away, reciprocal)
    a0 = np.float32(rng.normal(0, 2, r))
    adv = [a0.view(np.uint32)]
    pick = rng.integers(0, 4, r)
    a1 = np.where(pick == 0, a0, np.where(pick == 1, -a0, np.where(pick == 2, np.nextafter(a0, np.float32(np.inf)),
                                                                    np.float32(1) / a0)))
    adv.append(np.float32(a1).view(np.uint32))
    for _ in range(arity - 2):
        adv.append(np.float32(-a0 * a1).view(np.uint32))
    return [np.concatenate([cols[i], rand[i], nice[i], adv[i]]) for i in range(arity)]


def _confirm(spec: Node, f: Node, w: Witness, target: Target, nan: str) -> None:
    """Re-evaluate a witness with the gmpy2 reference; the two evaluators must agree (NaNs as a class)."""
    if any(n.op is Op.OPAQUE for n in walk(f)) or any(n.op is Op.OPAQUE for n in walk(spec)):
        return
    args = {i: typed.value_of(b, w.ty(i)) for i, b in enumerate(w.inputs)}
    rs = evaluate_scalar(spec, args)
    rk = evaluate_scalar(f, args, ftz=target.ftz)
    for got, want, side in ((rk, w.kernel, "kernel"), (rs, w.spec, "spec")):
        g = np.float32(got)
        ok = (np.isnan(g) and np.isnan(typed.value_of(want, w.out_ty))) or \
            int(typed.to_bits(np.array([g]), w.out_ty)[0]) == want
        if not ok:
            raise AssertionError(f"evaluators disagree on the {side} at {w.describe()}: gmpy2 gives {float(g)!r}")
    if nan == "any" and np.isnan(np.float32(rk)) and np.isnan(np.float32(rs)):
        raise AssertionError(f"witness {w.describe()} is not a counterexample under the any-NaN policy")


def _gate(kernel: Kernel, steps: Steps, sizes: tuple[int, ...] = GATE_SIZES) -> Safety:
    with steps.step("safety gate", total=len(sizes), unit="sizes") as st:
        return gate(kernel, sizes, st.advance)


def _search(spec: Spec, fns: tuple[Node, ...], sem: Semantics, nan: str, random_cases: int, advance=None):
    rng = np.random.default_rng(SEED)
    cols = case_inputs(spec.arity, _constants(spec.expr, *fns), rng, random_cases)
    tys = spec.in_types()
    if any(t.is_half for t in tys):
        consts = [float(n.value) for r in (spec.expr, *fns) for n in walk(r) if n.op is Op.CONST and n.ty.is_float]
        cols = typed.typed_case_inputs(tys, consts, rng, random_cases, cols)
    xs = {i: c.view(np.float32) for i, c in enumerate(cols)}
    want = np.asarray(evaluate(spec.expr, xs, HOST), dtype=np.float32)
    want = np.broadcast_to(want, cols[0].shape)
    if advance is not None:
        advance(1)
    witnesses = []
    for fi, f in enumerate(fns):
        got = np.broadcast_to(np.asarray(evaluate(f, xs, sem), dtype=np.float32), cols[0].shape)
        if advance is not None:
            advance(1)
        bad = np.flatnonzero(~same(np.ascontiguousarray(got), np.ascontiguousarray(want), nan))
        # the first mismatch of each combination of input float classes, in case order, at most 8
        picked: dict[tuple[str, ...], int] = {}
        for j in bad[:4096]:
            key = tuple(signed_class(int(c[j])) for c in cols)
            if key not in picked and len(picked) < 8:
                picked[key] = int(j)
        for j in sorted(picked.values()):
            witnesses.append(_witness(tuple(c[j:j + 1].view(np.float32) for c in cols),
                                      got[j:j + 1], want[j:j + 1], fi, spec))
    return witnesses, len(cols[0])


def _witness(values: tuple[np.ndarray, ...], got, want, fi: int, spec: Spec) -> Witness:
    """A witness from float32-carried input values (one-element float32 arrays, never Python floats: the
    conversion to double quiets a signalling NaN, 0x7F800001 would print as 0x7FC00001) and outputs, in each
    value's own format."""
    tys = spec.in_types()
    ins = tuple(int(typed.to_bits(np.asarray(v, dtype=np.float32).reshape(-1)[:1], t)[0]) for v, t in zip(values, tys))
    k = int(typed.to_bits(np.asarray(got, dtype=np.float32).reshape(-1)[:1], spec.dtype)[0])
    w = int(typed.to_bits(np.asarray(want, dtype=np.float32).reshape(-1)[:1], spec.dtype)[0])
    return Witness(ins, k, w, fi, tys if spec.dtype.is_half else (), spec.dtype)


def check(spec: Spec, kernel: Kernel, target: Target = Target(), nan: str = "any", *, workers: int = 2,
          progress: bool = True, exhaustive: bool = True, random_cases: int = RANDOM_CASES,
          safety: Safety | None = None, sweeps: dict | None = None, count_mismatches: bool = True,
          steps: Steps = QUIET) -> Verdict:
    """Decide one (spec, kernel, target, NaN policy). ``sweeps`` caches exhaustive results keyed by
    ``(spec expr, element function, semantics, nan)`` so that ``check_all`` sweeps each function once.
    With ``count_mismatches=False`` a unary kernel that the case split already refuted is not swept (its
    verdict has a witness but no count); a kernel without counterexample is always swept."""
    if nan not in NAN_POLICIES:
        raise FloatsUsageError(f"NaN policy {nan!r} is not one of {NAN_POLICIES}; use --nan any or --nan payload")
    n_out, s_out = max(1, len(kernel.outputs)), max(1, len(spec.outputs))
    if n_out != s_out:
        raise FloatsUsageError(
            f"kernel {kernel.name} writes {n_out} output arrays ({', '.join(kernel.outputs or (kernel.output,))}) but "
            f"program in {spec.path} returns {s_out} tensors; return a tuple with one tensor per output array, in "
            "the kernel's parameter order")
    if n_out > 1:
        safety = safety if safety is not None else _gate(kernel, steps)
        parts = [check(spec.output(k), kernel.only(o), target, nan, workers=workers, progress=progress,
                       exhaustive=exhaustive, random_cases=random_cases, safety=safety, sweeps=sweeps,
                       count_mismatches=count_mismatches, steps=steps) for k, o in enumerate(kernel.outputs)]
        return combine(parts, kernel.outputs, spec.name)  # workbench.floats.outputs
    if len(kernel.inputs) != spec.arity:
        raise FloatsUsageError(
            f"kernel {kernel.name} reads {len(kernel.inputs)} inputs ({', '.join(kernel.inputs)}) but "
            f"program in {spec.path} takes {spec.arity}; pair the kernel with a spec of the same arity")
    k_scalars = tuple(i for i, x in enumerate(kernel.inputs) if x in kernel.scalars)
    if k_scalars != tuple(spec.scalars):
        raise FloatsUsageError(
            f"kernel {kernel.name}'s inputs ({', '.join(kernel.inputs)}) have scalars at positions {list(k_scalars)} "
            f"but program in {spec.path} at {list(spec.scalars)}; annotate the program's scalar parameters "
            "`: float` and keep the kernel's parameter order")
    safety = safety if safety is not None else _gate(kernel, steps)
    dev = str(spec.device)
    common = dict(spec=spec.name, kernel=kernel.name, target=target, nan=nan, safety=safety,
                  spec_text=repr(spec.expr), spec_device=dev)
    shape: Shape = element_functions(kernel)
    if not shape.elementwise:
        return Verdict(status="not elementwise", summary=f"{shape.problem} (spec: PyTorch on {dev})", **common)
    fns = shape.functions
    typed.check_types(spec, kernel, fns)
    if target.fma:
        fns = tuple(contract_fma(f) for f in fns)
    rendered = tuple(repr(f) for f in fns)
    k_opaque = tuple(sorted({n for f in fns for n in opaque_names(f)}))
    s_opaque = spec.opaque
    if k_opaque or s_opaque:
        parts = []
        if k_opaque:
            parts.append(f"{', '.join(k_opaque)} on the device")
        if s_opaque:
            parts.append(f"{', '.join(s_opaque)} in PyTorch")
        summary = "undecided: depends on " + " and ".join(parts) + f" (spec: PyTorch on {dev})"
        ulps = None
        if not spec.dtype.is_half and all(standins.replaceable(f, spec.expr) or not opaque_names(f) for f in fns) and \
                (not s_opaque or standins.replaceable(spec.expr)):
            rng = np.random.default_rng(SEED)
            cols = case_inputs(spec.arity, _constants(spec.expr, *fns), rng, min(random_cases, 1 << 16))
            if spec.arity == 1:  # the case split is special values only: add random bit patterns
                cols = [np.concatenate([cols[0], rng.integers(0, 1 << 32, 1 << 16, dtype=np.uint64).astype(np.uint32)])]
            xs = {i: c.view(np.float32) for i, c in enumerate(cols)}
            found = [standins.max_ulp(spec.expr, f, xs, target.semantics(nan)) for f in fns]
            if all(u is not None for u, _ in found):
                ulps = max(u for u, _ in found)
                summary += (f"; with each approximation read as its correctly rounded counterpart the two sides "
                            f"differ by at most {ulps} ulp on {found[0][1]:,} inputs (documented: "
                            f"{standins.documented(*fns, spec.expr)})")
            else:
                summary += "; even with correctly rounded stand-ins one side is NaN where the other is not"
        return Verdict(status="undecided", summary=summary, max_ulp=ulps,
                       opaque=k_opaque + s_opaque, functions=rendered, **common)
    sem = target.semantics(nan)
    if spec.arity > 1 and sem == HOST and all(f == spec.expr for f in fns):
        # The element function is the spec's expression node for node, and both are evaluated under the same
        # semantics (no flushing, NaNs compared as a class): one deterministic function of the inputs, so the
        # bits agree on every input. Only n-ary kernels take this path (unary ones are swept over 2**32).
        notes = [f"{len(fns)} distinct store sites, each checked: lines {list(shape.lines)}"] if len(fns) > 1 else []
        return Verdict(status="equivalent", summary=f"equivalent: the element function is the spec's expression "
                       f"node for node ({rendered[0]}), both evaluated under {target.label} without flushing, NaN "
                       f"policy {nan}: identical on every input (a proof by identity, not a search; spec: PyTorch "
                       f"on {dev})", cases=0, exhaustive=False, functions=rendered, notes=tuple(notes), **common)
    with steps.step("case split", total=len(fns) + 1, unit="functions evaluated (spec first)") as st:
        witnesses, cases = _search(spec, fns, sem, nan, random_cases, st.advance)
    mismatches = None
    done_exhaustive = False
    if spec.arity == 1 and exhaustive and (count_mismatches or not witnesses):
        cache = sweeps if sweeps is not None else {}
        missing = tuple(dict.fromkeys(f for f in fns if (spec.expr, f, sem, nan) not in cache))
        ty = spec.in_types()[0]
        if missing:
            found = typed.sweep16(spec.expr, missing, sem, nan, ty) if ty.is_half else \
                sweep_unary(spec.expr, missing, sem, nan, workers=workers, progress=progress,
                            desc=f"{kernel.name} {target.label}")
            for f, r in zip(missing, found):
                cache[(spec.expr, f, sem, nan)] = r
        results = [cache[(spec.expr, f, sem, nan)] for f in fns]
        mismatches = sum(r.mismatches for r in results)
        done_exhaustive = True
        cases = results[0].inputs if results else 1 << 32
        seen = {w.inputs for w in witnesses}
        for fi, r in enumerate(results):
            for _cls, b in r.witnesses:
                if (b,) in seen:
                    continue
                x = {0: typed.from_bits(np.array([b]), ty)}
                got = np.asarray(evaluate(fns[fi], x, sem), dtype=np.float32).reshape(-1)[:1]
                want = np.asarray(evaluate(spec.expr, x, HOST), dtype=np.float32).reshape(-1)[:1]
                witnesses.append(_witness((x[0][:1],), got, want, fi, spec))
                seen.add((b,))
        if mismatches and not witnesses:
            raise AssertionError("sweep found mismatches but no witness was recorded")
        if not mismatches and witnesses:
            raise AssertionError("case split found a counterexample the exhaustive sweep missed")
    for w in witnesses:
        _confirm(spec.expr, fns[w.function], w, target, nan)
    notes = []
    if len(fns) > 1:
        notes.append(f"{len(fns)} distinct store sites, each checked: lines {list(shape.lines)}")
    if witnesses:
        count = f"; {mismatches:,} of {_space(cases)} inputs differ" if mismatches is not None else ""
        return Verdict(status="not equivalent", summary=f"not equivalent: {witnesses[0].describe()}{count} "
                       f"(spec: PyTorch on {dev})",
                       witnesses=tuple(witnesses), mismatches=mismatches, cases=cases, exhaustive=done_exhaustive,
                       lines=tuple(shape.lines[witnesses[0].function]),
                       functions=rendered, notes=tuple(notes), **common)
    if done_exhaustive:
        return Verdict(status="equivalent", summary=f"equivalent: identical on all {_space(cases)} inputs "
                       f"(NaN policy: {nan}; spec: PyTorch on {dev})", mismatches=0, cases=cases, exhaustive=True, functions=rendered,
                       notes=tuple(notes), **common)
    return Verdict(status="no counterexample", summary=f"no counterexample in {cases:,} cases (not exhaustive; "
                   f"spec: PyTorch on {dev})",
                   cases=cases, functions=rendered, notes=tuple(notes), **common)


def _space(cases: int) -> str:
    return "2**16" if cases == 1 << 16 else "2**32"


def check_files(spec_path, kernel_path, target: Target = Target(), nan: str = "any", *, spec_device: str = "cuda",
                **options) -> tuple[Spec, Kernel, Verdict]:
    """SPEC.py and KERNEL.cu paths -> (spec, kernel, verdict): capture, parse, check."""
    steps = options.get("steps", QUIET)
    with steps.step("capturing the spec (torch.export)"):
        spec = capture_spec(spec_path, spec_device)
    with steps.step("parsing the kernel (libclang)"):
        kernel = parse_kernel(kernel_path)
    return spec, kernel, check(spec, kernel, target, nan, **options)


__all__ = ["NAN_POLICIES", "Target", "Verdict", "Witness", "case_inputs", "check", "check_files"]
