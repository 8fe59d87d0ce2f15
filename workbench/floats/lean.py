"""Lean text for a kernel/spec pair and for a counterexample (stage: floats).

``lean_method`` writes report 3's arrangement: the spec from the PyTorch graph as a Lean ``def`` over
``Float32``, the kernel's element function as the body of a Velvet-style ``method`` whose ``ensures`` is the
spec, and a ``prove_correct ... by loom_solve`` line. ``lean_counterexample`` writes a closed statement
about one input that ``decide`` can evaluate (Lean >= 4.33 defines ``Float32`` down to the bits).

Deterministic text (no clocks, sorted names), golden-tested. This machine has no Lean toolchain: the text
is emitted, never checked here, and nothing in it has been proved.

Rendering: float32 constants are written as ``Float32.ofBits 0x...`` (exact; a decimal would be re-rounded
by Lean's ``OfScientific``); comparisons become ``Bool`` with ``decide``; f64 arithmetic goes through
``Float32.toFloat``/``Float.toFloat32``; C's fmaxf/fminf, torch.maximum/minimum, fmaf and every
transcendental are named helpers declared in the preamble (``opaque`` where Lean core has no definition).
"""

from __future__ import annotations

import re

import numpy as np

from workbench.floats.ir import Node, Op, Ty, walk

_HELPERS = {
    Op.FMAX: ("fmaxf", "def fmaxf (a b : Float32) : Float32 :=  -- C99 fmax = IEEE 754-2019 maximumNumber\n"
              "  if a.isNaN then b else if b.isNaN then a else if a < b then b else if b < a then a\n"
              "  else Float32.ofBits (a.toBits &&& b.toBits)"),
    Op.FMIN: ("fminf", "def fminf (a b : Float32) : Float32 :=  -- C99 fmin = IEEE 754-2019 minimumNumber\n"
              "  if a.isNaN then b else if b.isNaN then a else if a < b then a else if b < a then b\n"
              "  else Float32.ofBits (a.toBits ||| b.toBits)"),
    Op.MAXIMUM: ("torch_maximum", "def torch_maximum (a b : Float32) : Float32 :=  -- ATen, vectorized path\n"
                 "  if a.isNaN then a else if b.isNaN then b else if a > b then a else b"),
    Op.MINIMUM: ("torch_minimum", "def torch_minimum (a b : Float32) : Float32 :=  -- ATen, vectorized path\n"
                 "  if a.isNaN then a else if b.isNaN then b else if a < b then a else b"),
    Op.COPYSIGN: ("copysignf", "def copysignf (a b : Float32) : Float32 :=\n"
                  "  Float32.ofBits ((a.toBits &&& 0x7FFFFFFF) ||| (b.toBits &&& 0x80000000))"),
    Op.FMA: ("fmaf", "-- a*b+c rounded once; Lean core has no Float32 fma, so it is a named unknown here\n"
             "opaque fmaf : Float32 → Float32 → Float32 → Float32"),
}


def _bits32(v: float) -> int:
    return int(np.array(v, dtype=np.float32).view(np.uint32))


def _bits64(v: float) -> int:
    return int(np.array(v, dtype=np.float64).view(np.uint64))


def _name(s: str) -> str:
    return re.sub(r"\W", "_", s)


def render_lean(node: Node, var: str = "x") -> str:
    def go(n: Node) -> str:
        match n.op:
            case Op.ARG:
                return f"{var}{n.value}"
            case Op.CONST if n.ty is Ty.F32:
                return f"(Float32.ofBits 0x{_bits32(n.value):08X})"
            case Op.CONST if n.ty is Ty.F64:
                return f"(Float.ofBits 0x{_bits64(n.value):016X})"
            case Op.CONST:
                return "true" if n.value else "false" if n.ty is Ty.BOOL else str(n.value)
            case Op.ADD | Op.SUB | Op.MUL | Op.DIV:
                sym = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "*", Op.DIV: "/"}[n.op]
                return f"({go(n.args[0])} {sym} {go(n.args[1])})"
            case Op.NEG:
                return f"(-{go(n.args[0])})"
            case Op.ABS:
                return f"({go(n.args[0])}).abs"
            case Op.SQRT:
                return f"({go(n.args[0])}).sqrt"
            case Op.LT | Op.LE | Op.GT | Op.GE:
                sym = {Op.LT: "<", Op.LE: "≤", Op.GT: ">", Op.GE: "≥"}[n.op]
                return f"(decide ({go(n.args[0])} {sym} {go(n.args[1])}))"
            case Op.EQ:
                return f"({go(n.args[0])} == {go(n.args[1])})"
            case Op.NE:
                return f"({go(n.args[0])} != {go(n.args[1])})"
            case Op.ISNAN:
                return f"({go(n.args[0])}).isNaN"
            case Op.AND:
                return f"({go(n.args[0])} && {go(n.args[1])})"
            case Op.OR:
                return f"({go(n.args[0])} || {go(n.args[1])})"
            case Op.NOT:
                return f"(!{go(n.args[0])})"
            case Op.SELECT:
                return f"(if {go(n.args[0])} then {go(n.args[1])} else {go(n.args[2])})"
            case Op.CAST if n.ty is Ty.F64 and n.args[0].ty is Ty.F32:
                return f"({go(n.args[0])}).toFloat"
            case Op.CAST if n.ty is Ty.F32 and n.args[0].ty is Ty.F64:
                return f"({go(n.args[0])}).toFloat32"
            case Op.FMAX | Op.FMIN | Op.MAXIMUM | Op.MINIMUM | Op.COPYSIGN | Op.FMA:
                return f"({_HELPERS[n.op][0]} {' '.join(go(a) for a in n.args)})"
            case Op.OPAQUE:
                return f"({_name(n.name)} {' '.join(go(a) for a in n.args)})"
            case Op.CAST_RZ:
                raise ValueError("render_lean: a round-toward-zero conversion (__fmul_rz) has no Lean core "
                                 "counterpart here; drop --lean")
            case Op.CAST | Op.REM | Op.PARAM | Op.THREAD | Op.LOAD:
                raise ValueError(f"render_lean: {n.op.value} on {n.ty.value} does not occur in element functions")
        raise AssertionError(f"render_lean: no rule for {n.op}")

    return go(node)


def _preamble(*nodes: Node) -> list[str]:
    lines = []
    ops = {n.op for root in nodes for n in walk(root)}
    for op in (Op.FMAX, Op.FMIN, Op.MAXIMUM, Op.MINIMUM, Op.COPYSIGN, Op.FMA):
        if op in ops:
            lines += [_HELPERS[op][1], ""]
    opaque = sorted({(n.name, len(n.args)) for root in nodes for n in walk(root) if n.op is Op.OPAQUE})
    for name, k in opaque:
        lines += [f"-- {name}: not modelled bit-exactly; any verdict through it is undecided",
                  f"opaque {_name(name)} : {' → '.join(['Float32'] * (k + 1))}", ""]
    return lines


def _params(arity: int, var: str = "x") -> str:
    return " ".join(f"({var}{i} : Float32)" for i in range(arity))


def lean_method(spec_name: str, spec_expr: Node, arity: int, kernel_name: str, inputs: tuple[str, ...],
                output: str, fn: Node, target_label: str, source: str) -> str:
    """Velvet-style method for a kernel with the PyTorch spec as postcondition (text only)."""
    arrays = " ".join(f"({_name(a)}_ : Array Float32)" for a in inputs)
    reads = "\n".join(f"    let x{i} := {_name(a)}_[gid]!" for i, a in enumerate(inputs))
    spec_args = " ".join(f"{_name(a)}_[i]!" for a in inputs)
    inv_args = " ".join(f"{_name(a)}_[k]!" for a in inputs)
    sizes = "\n".join(f"  require n = {_name(a)}_.size" for a in inputs)
    body = render_lean(fn)
    name = _name(kernel_name)
    lines = [
        f"/-! # `{kernel_name}` against `{spec_name}`",
        "",
        "Generated by `workbench floats` from the PyTorch graph and the kernel's clang AST.",
        f"Device semantics: {target_label}. Text only: this file has not been checked by Lean.",
        f"Kernel source: {source}",
        "",
        "## Main statement",
        f"`{name}` ensures `out[i]! = spec ...[i]!` for every element.",
        "-/",
        "",
        *_preamble(spec_expr, fn),
        "-- from the PyTorch graph:",
        f"def spec {_params(arity)} : Float32 :=",
        f"  {render_lean(spec_expr)}",
        "",
        f"method {name} {arrays} (mut {_name(output)} : Array Float32) (n : Nat)",
        sizes,
        f"  require n = {_name(output)}.size",
        f"  ensures ∀ i < {_name(output)}.size, {_name(output)}[i]! = spec {spec_args}",
        "  do",
        "  let mut gid := 0",
        "  while gid < n",
        f"    invariant gid ≤ n ∧ {_name(output)}.size = n",
        f"    invariant ∀ k < gid, {_name(output)}[k]! = spec {inv_args}",
        "  do",
        reads,
        f"    {_name(output)} := {_name(output)}.set! gid {body}",
        "    gid := gid + 1",
        "",
        f"prove_correct {name} by loom_solve",
        "",
    ]
    return "\n".join(lines)


def lean_counterexample(spec_name: str, spec_expr: Node, arity: int, kernel_name: str, fn: Node,
                        inputs: tuple[int, ...], kernel_bits: int, spec_bits: int, target_label: str) -> str:
    """A closed, ``decide``-checkable statement that the kernel and the spec differ at one input."""
    name = _name(kernel_name)
    tag = "_".join(f"{b:08X}" for b in inputs)
    args = " ".join(f"(Float32.ofBits 0x{b:08X})" for b in inputs)

    def fact(side: str, bits: int) -> str:
        v = np.array(bits, dtype=np.uint32).view(np.float32)
        if np.isnan(v):
            return f"({side} {args}).isNaN = true"
        return f"({side} {args}).toBits = 0x{bits:08X}"

    unknown = sorted({_HELPERS[n.op][0] if n.op is Op.FMA else _name(n.name) for root in (spec_expr, fn)
                      for n in walk(root) if n.op in (Op.FMA, Op.OPAQUE)})
    if unknown:
        proof = f"by sorry  -- {', '.join(unknown)} opaque here: `decide` cannot evaluate it without a definition"
        about = (f"The statements are closed but mention {', '.join(unknown)}, declared opaque below; `decide` "
                 "needs a bit-level definition of it first.")
    else:
        proof = "by decide"
        about = "Each statement is closed, so `decide` can evaluate it with Lean's bit-level Float32 model."
    lines = [
        f"/-! # `{kernel_name}` differs from `{spec_name}` at input {', '.join(f'0x{b:08X}' for b in inputs)}",
        "",
        f"Generated by `workbench floats`; device semantics: {target_label}.",
        about,
        "Text only: this file has not been checked by Lean.",
        "-/",
        "",
        *_preamble(spec_expr, fn),
        f"def spec {_params(arity)} : Float32 :=",
        f"  {render_lean(spec_expr)}",
        "",
        f"def kernel {_params(arity)} : Float32 :=",
        f"  {render_lean(fn)}",
        "",
        f"theorem {name}_ne_spec_at_{tag} :",
        f"    (kernel {args}).toBits ≠ (spec {args}).toBits := {proof}",
        "",
        f"theorem {name}_at_{tag} :",
        f"    {fact('kernel', kernel_bits)} ∧ {fact('spec', spec_bits)} := {proof}",
        "",
    ]
    return "\n".join(lines)
