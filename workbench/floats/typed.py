"""Inputs and outputs by format: float32, binary16 and bfloat16 arguments of one check (stage: floats).

Values of every format travel through the evaluators as float32 (``halfprec``); this module makes the
case-split columns for mixed formats, turns float32-carried values into the bit patterns a user sees (8 hex
digits for float32, 4 for half and bfloat16) and back, and runs the exhaustive sweep of a unary half or
bfloat16 kernel: all 2**16 inputs in one vectorized evaluation.
"""

from __future__ import annotations

import numpy as np

from workbench.floats.errors import FloatsUsageError
from workbench.floats.evaluate import HOST, Semantics, evaluate
from workbench.floats.halfprec import SPECIAL16, bits16, classify16, from_bits16, round_to
from workbench.floats.ir import Node, Op, Ty, walk


def check_types(spec, kernel, fns: tuple[Node, ...]) -> None:
    """The kernel's element types must be the program's DTYPE (float32 scalars aside)."""
    k_tys = {int(n.value): n.ty for f in fns for n in walk(f) if n.op is Op.ARG}
    want = spec.in_types()
    out_tys = {f.ty for f in fns}
    names = {Ty.F32: "float", Ty.F16: "__half", Ty.BF16: "__nv_bfloat16", Ty.F64: "double"}
    for i, t in sorted(k_tys.items()):
        if t is not want[i]:
            raise FloatsUsageError(
                f"kernel {kernel.name} reads {kernel.inputs[i]} as {names.get(t, t.value)} but program in {spec.path} "
                f"takes argument {i} as {names.get(want[i], want[i].value)}; set DTYPE in the spec "
                "(torch.float16 for __half, torch.bfloat16 for __nv_bfloat16) or change the kernel's types")
    if out_tys and out_tys != {spec.dtype}:
        got = ", ".join(sorted(names.get(t, t.value) for t in out_tys))
        raise FloatsUsageError(f"kernel {kernel.name} stores {got} but program in {spec.path} returns "
                               f"{names.get(spec.dtype, spec.dtype.value)}; make the output types agree (DTYPE)")


def width(ty: Ty) -> int:
    return 4 if ty.is_half else 8


def show_bits(b: int, ty: Ty) -> str:
    return f"0x{b:0{width(ty)}X}"


def to_bits(values, ty: Ty) -> np.ndarray:
    """float32-carried values -> the format's bit patterns (uint32 for float32, uint16 otherwise)."""
    v = np.asarray(values, dtype=np.float32)
    return bits16(v, ty) if ty.is_half else v.view(np.uint32)


def from_bits(bits, ty: Ty) -> np.ndarray:
    """Format bit patterns -> float32-carried values."""
    if ty.is_half:
        return from_bits16(np.asarray(bits, dtype=np.uint16), ty)
    return np.asarray(bits, dtype=np.uint32).view(np.float32)


def value_of(bits: int, ty: Ty) -> float:
    return float(from_bits(np.array([bits]), ty)[0])


def typed_case_inputs(tys: tuple[Ty, ...], consts: list[float], rng: np.random.Generator, random_cases: int,
                      f32_columns) -> list[np.ndarray]:
    """Case-split columns (uint32 views of float32-carried values) for arguments of mixed formats. float32
    arguments get ``f32_columns`` (the float32 case split); half/bfloat16 arguments get the format's
    special values and the constants rounded to it (a grid with the other arguments), random 16-bit
    patterns, random normal values and, for the second argument, values derived from the first."""
    cols32 = f32_columns
    n32 = len(cols32[0])
    out = []
    for i, ty in enumerate(tys):
        if not ty.is_half:
            out.append(cols32[i])
            continue
        specials = np.array(list(dict.fromkeys(list(SPECIAL16[ty]) + [int(b) for b in to_bits(
            round_to(np.asarray(consts, dtype=np.float32), ty), ty)])), dtype=np.uint16) if consts else \
            np.array(SPECIAL16[ty], dtype=np.uint16)
        rand = rng.integers(0, 1 << 16, n32, dtype=np.uint32).astype(np.uint16)
        # the grid of specials lines up with the float32 grid by position; beyond it, random patterns
        k = min(len(specials) ** max(1, len(tys)), n32)
        idx = np.arange(k)
        grid = specials[(idx // (len(specials) ** i)) % len(specials)]
        col = np.concatenate([grid, rand[k:]])
        half = n32 // 2
        nice = round_to(np.float32(rng.normal(0, 4, n32 - half)), ty)
        col_v = from_bits16(col, ty)
        col_v[half:] = nice
        if i == 1:  # adversarial: equal, negated, one step away in the format
            a0 = out[0].view(np.float32)
            pick = rng.integers(0, 3, n32)
            step = from_bits16((to_bits(a0, ty).astype(np.int32) + 1).astype(np.uint16), ty)
            derived = np.where(pick == 0, a0, np.where(pick == 1, -a0, step)).astype(np.float32)
            third = n32 // 3
            col_v[-third:] = derived[-third:]
        col_v = round_to(col_v, ty)  # every value of the column is a value of the format (derived ones too)
        out.append(np.ascontiguousarray(col_v, dtype=np.float32).view(np.uint32))
    return out


def sweep16(spec: Node, fns: tuple[Node, ...], sem: Semantics, nan: str, ty: Ty):
    """All 2**16 inputs of a unary half/bfloat16 function: (mismatch count, smallest witness per class) each."""
    from workbench.floats.sweep import CLASSES, SweepResult, same

    x = from_bits16(np.arange(1 << 16, dtype=np.uint32).astype(np.uint16), ty)
    want = np.broadcast_to(np.asarray(evaluate(spec, {0: x}, HOST), dtype=np.float32), x.shape)
    out = []
    for f in fns:
        got = np.broadcast_to(np.asarray(evaluate(f, {0: x}, sem), dtype=np.float32), x.shape)
        bad = np.flatnonzero(~same(np.ascontiguousarray(got), np.ascontiguousarray(want), nan))
        mins: dict[str, int] = {}
        for j in bad:  # ascending bit patterns: the first of each class is its smallest
            k = classify16(int(j), ty)
            if k not in mins:
                mins[k] = int(j)
        out.append(SweepResult(len(bad), tuple((k, mins[k]) for k in CLASSES if k in mins), 1 << 16))
    return out
