"""Cross-validation: the source level's model of a kernel against what nvcc emitted (stage: floats/ptx).

For one kernel and one flag set that the source level can express (``SOURCE_TARGETS``: nvcc's default is
``fma=on ftz=off``, ``--fmad=false`` is ``fma=off``, ``--ftz=true`` is ``ftz=on``), ``compare`` evaluates
the source level's element functions (``gate.element_functions``, contracted with ``ir.contract_fma`` when
fma is on, evaluated with ``Target.semantics``) and the PTX level's (``extract``) on the same inputs: the
case-split inputs of ``check.case_inputs`` plus, for unary kernels, a stride through all 2**32 patterns.
Both sides must compute the same set of functions, bit for bit (NaNs as one class). A disagreement names
the input, each side's output and every PTX instruction's value at that input (``evaluate.trace``): the
instruction where the source model went wrong is the first whose value the source model does not produce.

Kernels either side cannot evaluate (an opaque call in the source, an implementation-defined instruction in
the PTX, a kernel the PTX level refuses by name such as a ``float`` scalar parameter) are reported as
``skipped`` with the reason, never as agreement.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.floats.check import SEED, Target, case_inputs
from workbench.floats.evaluate import evaluate as evaluate_source
from workbench.floats.ir import contract_fma, opaque_names
from workbench.floats.ptx.evaluate import evaluate_many, implementation_defined, trace
from workbench.floats.ptx.extract import extract
from workbench.floats.ptx.nvcc import DEFAULT_ARCH, Flags
from workbench.floats.ptx.parse import PtxUnsupportedError

SOURCE_TARGETS = (("default", Flags(), Target(fma=True, ftz=False)),
                  ("--fmad=false", Flags(fmad=False), Target(fma=False, ftz=False)),
                  ("--ftz=true", Flags(ftz=True), Target(fma=True, ftz=True)))
STRIDE = 65521  # a prime: the unary stride visits every exponent and many mantissa residues


@dataclass(frozen=True, slots=True)
class Comparison:
    kernel: str
    flags: str
    agree: bool
    skipped: str = ""  # why the kernel could not be compared ("" when it was)
    inputs: int = 0
    disagreement: str = ""  # input, outputs and the PTX instruction trace


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    fa, fb = a.view(np.float32), b.view(np.float32)
    return (a == b) | (np.isnan(fa) & np.isnan(fb))


def compare(kernel_path, label: str, flags: Flags, target: Target, arch: str = DEFAULT_ARCH,
            random_cases: int = 1 << 14) -> Comparison:
    from workbench.floats.cuda import parse_kernel
    from workbench.floats.gate import element_functions

    kernel = parse_kernel(kernel_path)
    shape = element_functions(kernel)
    name = f"{kernel_path}"
    try:
        x = extract(kernel_path, flags, arch)
    except PtxUnsupportedError as e:  # refused by name at the PTX level: nothing to compare, said so
        return Comparison(name, label, True, skipped=f"PTX level refuses: {e}")
    if not shape.elementwise or not x.elementwise:
        if shape.elementwise != x.elementwise:
            return Comparison(name, label, False, disagreement=f"source says elementwise={shape.elementwise} "
                              f"({shape.problem}), PTX says elementwise={x.elementwise} ({x.problem})")
        return Comparison(name, label, True, skipped="not elementwise at either level")
    src = tuple(contract_fma(f) for f in shape.functions) if target.fma else shape.functions
    opaque = sorted({o for f in src for o in opaque_names(f)})
    impl = sorted({i for f in x.functions for i in implementation_defined(f)})
    if opaque or impl:
        return Comparison(name, label, True, skipped=f"source opaque {opaque}, PTX implementation-defined {impl}")
    arity = len(kernel.inputs)
    cols = case_inputs(arity, [], np.random.default_rng(SEED), random_cases)
    if arity == 1:
        cols = [np.concatenate([cols[0], np.arange(0, 1 << 32, STRIDE, dtype=np.uint64).astype(np.uint32)])]
    sem = target.semantics("any")
    src_out = [np.ascontiguousarray(np.broadcast_to(np.asarray(
        evaluate_source(f, {i: c.view(np.float32) for i, c in enumerate(cols)}, sem), np.float32),
        cols[0].shape)).view(np.uint32) for f in src]
    ptx_out = [np.ascontiguousarray(v) for v in evaluate_many(x.functions, cols)]
    for pi, p in enumerate(ptx_out):
        if any(_same(p, s).all() for s in src_out):
            continue
        s = src_out[0]
        j = int(np.flatnonzero(~_same(p, s))[0])
        ins = tuple(int(c[j]) for c in cols)
        steps = "; ".join(trace(x.functions[pi], ins))
        return Comparison(name, label, False, inputs=len(cols[0]), disagreement=(
            f"input {', '.join(f'0x{b:08X}' for b in ins)}: PTX stores 0x{int(p[j]):08X} (store at PTX line "
            f"{x.sites[pi]}), source model {src[0]!r} gives 0x{int(s[j]):08X}; PTX: {steps}"))
    for si, s in enumerate(src_out):
        if not any(_same(p, s).all() for p in ptx_out):
            return Comparison(name, label, False, inputs=len(cols[0]), disagreement=(
                f"source function {src[si]!r} matches no PTX store ({[repr(f) for f in x.functions]})"))
    return Comparison(name, label, True, inputs=len(cols[0]))
