"""The op table: each supported ATen overload as PyTorch computes it on float32, per device (stage: floats).

A spec's meaning depends on the device PyTorch runs it on: ATen's CPU and CUDA kernels for the same op are
different programs (a CPU vector kernel may fuse a multiply-add, CUDA divides by a scalar by multiplying with
its reciprocal, CPU ``sqrt`` calls Intel MKL). Every rule below is written from the ATen source named in its
``cpu``/``cuda`` citation (paths under ``aten/src/ATen/native/``, torch 2.x); ``docs/floats.md`` has the
table. The CPU rules are checked bit for bit against torch eager on this machine by
``tests/floats/test_floats_conformance.py`` (>= 1M random inputs plus special values per op); the CUDA
rules are checked the same way only where a GPU exists (none here: they are read from the source).

Conventions the rules share:
- A Python scalar operand is converted to float32 once (``Scalar::to<float>()``, round to nearest).
- CUDA device code compiled by nvcc with its defaults (PyTorch sets no fast-math): ``a * b + c`` in one
  expression is contracted into an fma, ``::max``/``::min`` on floats are ``fmaxf``/``fminf`` (NaN operand
  ignored), division and sqrt are correctly rounded (``-prec-div=true -prec-sqrt=true``).
- A result that no bit-exact model exists for is an OPAQUE node named ``aten.<op>`` (with the device and
  the reason); it makes every verdict that depends on it "undecided", never a guess.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable

import numpy as np

from workbench.floats.ir import Node, Op, Ty, const


class SpecDevice(enum.StrEnum):
    """Where PyTorch runs the spec: the candidate kernel replaces PyTorch's CUDA kernel, hence the default."""

    CUDA = "cuda"
    CPU = "cpu"


DEFAULT_DEVICE = SpecDevice.CUDA
SCALAR = "scalar"  # Node.name of an ARG that is a scalar parameter of the program (``alpha: float``)
F32_MAX = float(np.finfo(np.float32).max)


def scalar(v) -> Node:
    """ATen converts a Python scalar operand to the tensor's dtype once (``scalar.to<float>()``); the graph
    stores it as a double, so this is one rounding double -> float32."""
    if isinstance(v, Node):
        return v
    return const(float(np.float32(float(v))), Ty.F32)


def _n(op: Op, *args: Node, ty: Ty = Ty.F32) -> Node:
    return Node(op, ty, tuple(args))


def opaque(name: str, *args: Node) -> Node:
    return Node(Op.OPAQUE, Ty.F32, tuple(args), name=name)


def _isnan_or(x: Node, then: Node) -> Node:
    """CUDA's TensorCompare.cu kernels return a NaN input unchanged before calling ``::max``/``::min``
    ("Propagate nan, which doesn't propagate automatically for ROCm")."""
    return _n(Op.SELECT, _n(Op.ISNAN, x, ty=Ty.BOOL), x, then)


def clamp(dev: SpecDevice, x: Node, lo=None, hi=None) -> Node:
    """cpu: ``std::min(std::max(a, lo), hi)`` and ``vec::clamp`` (``_mm*_max_ps(lo, a)``): both keep ``a``
    when it is NaN or equal to a bound (so -0.0 passes). cuda: ``isnan(v) ? v : ::min(::max(v, lo), hi)``
    with fmaxf/fminf."""
    r = x
    match dev:
        case SpecDevice.CPU:
            if lo is not None:
                lo_n = scalar(lo)
                r = _n(Op.SELECT, _n(Op.LT, r, lo_n, ty=Ty.BOOL), lo_n, r)
            if hi is not None:
                hi_n = scalar(hi)
                r = _n(Op.SELECT, _n(Op.GT, r, hi_n, ty=Ty.BOOL), hi_n, r)
            return r
        case SpecDevice.CUDA:
            if lo is not None:
                r = _n(Op.FMAX, r, scalar(lo))
            if hi is not None:
                r = _n(Op.FMIN, r, scalar(hi))
            return _isnan_or(x, r)
    raise AssertionError(dev)


def clamp_tensor(dev: SpecDevice, x: Node, lo=None, hi=None) -> Node:
    """clamp.Tensor (tensor bounds). cpu: the vector kernel is ``vec::minimum(vec::maximum(a, lo), hi)``
    (NaN wins; equal zeros give the second operand) but its scalar tail is ``std::min(std::max(a, lo), hi)``
    (equal zeros give ``a``): they disagree at x = -0.0, lo = +0.0, so which one applies depends on the
    element's position in the tensor. No per-element model exists: opaque. cuda: every NaN among the three
    is returned, else ``::min(::max(v, lo), hi)``."""
    match dev:
        case SpecDevice.CPU:
            return opaque("aten.clamp.Tensor[cpu: vector body and scalar tail differ at signed zeros]",
                          *[a for a in (x, lo, hi) if isinstance(a, Node)])
        case SpecDevice.CUDA:
            r = x
            if lo is not None:
                r = _n(Op.FMAX, r, scalar(lo))
            if hi is not None:
                r = _n(Op.FMIN, r, scalar(hi))
            for b in (hi, lo):
                if isinstance(b, Node):
                    r = _n(Op.SELECT, _n(Op.ISNAN, b, ty=Ty.BOOL), b, r)
            return _isnan_or(x, r)
    raise AssertionError(dev)


def relu(dev: SpecDevice, x: Node) -> Node:
    # Activation.cpp: relu(x) = clamp_min(x, 0) on every device
    return clamp(dev, x, 0.0, None)


def leaky_relu(dev: SpecDevice, x: Node, slope=0.01) -> Node:
    # both devices: a > 0 ? a : a * negval (negval = slope.to<float>())
    return _n(Op.SELECT, _n(Op.GT, x, const(0.0, Ty.F32), ty=Ty.BOOL), x, _n(Op.MUL, x, scalar(slope)))


def _sixth(dev: SpecDevice, t: Node) -> Node:
    """cpu divides by 6; cuda multiplies by ``one_sixth = 1.0f / 6.0f`` (rounded once)."""
    match dev:
        case SpecDevice.CPU:
            return _n(Op.DIV, t, const(6.0, Ty.F32))
        case SpecDevice.CUDA:
            return _n(Op.MUL, t, const(float(np.float32(1.0) / np.float32(6.0)), Ty.F32))
    raise AssertionError(dev)


def _relu6_of_x_plus_3(x: Node) -> Node:
    # min(max(x + 3, 0), 6): x + 3 is never -0.0 and a NaN passes both std::max/std::min and
    # vec::maximum/minimum, so one comparison form serves both devices.
    t = _n(Op.ADD, x, const(3.0, Ty.F32))
    t = _n(Op.SELECT, _n(Op.LT, t, const(0.0, Ty.F32), ty=Ty.BOOL), const(0.0, Ty.F32), t)
    return _n(Op.SELECT, _n(Op.GT, t, const(6.0, Ty.F32), ty=Ty.BOOL), const(6.0, Ty.F32), t)


def hardsigmoid(dev: SpecDevice, x: Node) -> Node:
    return _sixth(dev, _relu6_of_x_plus_3(x))


def hardswish(dev: SpecDevice, x: Node) -> Node:
    return _sixth(dev, _n(Op.MUL, x, _relu6_of_x_plus_3(x)))


def sqrt(dev: SpecDevice, x: Node) -> Node:
    match dev:
        case SpecDevice.CPU:
            # cpu/vml.h: IMPLEMENT_VML_MKL(sqrt, Sqrt) -> vmsSqrt(..., VML_HA | VML_FTZDAZ_OFF): Intel MKL's
            # closed-source vector sqrt, not correctly rounded (measured: 6,112 of 2**20 random inputs one ulp
            # low on this AVX-512 machine), and MKL picks its code path by CPU: no bit-exact model.
            return opaque("aten.sqrt[cpu: MKL VML vmsSqrt, not correctly rounded]", x)
        case SpecDevice.CUDA:
            return _n(Op.SQRT, x)  # cuda/UnaryOpsKernel.cu: ::sqrt -> sqrt.rn.f32
    raise AssertionError(dev)


def rsqrt(dev: SpecDevice, x: Node) -> Node:
    match dev:
        case SpecDevice.CPU:
            # Vectorized<float>::rsqrt() = 1 / _mm*_sqrt_ps(x); scalar: 1 / std::sqrt(a): two roundings
            return _n(Op.DIV, const(1.0, Ty.F32), _n(Op.SQRT, x))
        case SpecDevice.CUDA:
            # rsqrt_wrapper -> ::rsqrtf (rsqrt.approx.f32, documented max error 2 ulp)
            return opaque("aten.rsqrt[cuda: rsqrtf, 2 ulp]", x)
    raise AssertionError(dev)


def reciprocal(dev: SpecDevice, x: Node) -> Node:
    # cpu: 1 / a (vector: _mm*_div_ps(1, a)); cuda: static_cast<T>(1) / a: one correctly rounded division
    return _n(Op.DIV, const(1.0, Ty.F32), x)


def pow_scalar(dev: SpecDevice, x: Node, e) -> Node:
    """Pow.cpp: exponent 0 fills ones, 1 copies; PowKernel (cpu and cuda): 0.5 -> sqrt, -0.5 -> rsqrt,
    -1 -> reciprocal, 2 -> base * base, 3 -> base * base * base, -2 -> 1 / (base * base); others call pow."""
    if isinstance(e, Node) or isinstance(e, bool) or not isinstance(e, (int, float)):
        return opaque("aten.pow", x)
    d = float(e)
    one = const(1.0, Ty.F32)
    if d == 0.0:
        return one
    if d == 1.0:
        return x
    if d == 0.5:
        return sqrt(dev, x)
    if d == -0.5:
        return rsqrt(dev, x)
    if d == -1.0:
        return reciprocal(dev, x)
    sq = _n(Op.MUL, x, x)
    if d == 2.0:
        return sq
    if d == 3.0:
        return _n(Op.MUL, sq, x)
    if d == -2.0:
        return _n(Op.DIV, one, sq)
    return opaque("aten.pow", x)


def add(dev: SpecDevice, a, b, alpha=1) -> Node:
    """ufunc/add.h: ``self + alpha * other``; the CPU vector kernel is ``vec::fmadd(other, alpha, self)`` and
    nvcc contracts the CUDA one: one fma on both devices (alpha = 1 is a plain add: the product is exact)."""
    if alpha == 1:
        return _n(Op.ADD, scalar(a), scalar(b))
    return _n(Op.FMA, scalar(b), scalar(alpha), scalar(a))


def sub(dev: SpecDevice, a, b, alpha=1) -> Node:
    # BinaryOps.cpp: sub(a, b, alpha) = add(a, b, -alpha)
    if alpha == 1:
        return _n(Op.SUB, scalar(a), scalar(b))
    return add(dev, a, b, -alpha)


def rsub(dev: SpecDevice, a, b, alpha=1) -> Node:
    # BinaryOps.cpp: rsub(self, other, alpha) = sub(other, self, alpha)
    return sub(dev, b, a, alpha)


def div(dev: SpecDevice, a, b) -> Node:
    """cpu: a / b. cuda (BinaryDivTrueKernel.cu): when the divisor is a CPU scalar (a Python number in the
    graph) it computes ``a * (opmath_t(1) / b)`` instead of dividing."""
    if dev is SpecDevice.CUDA and not isinstance(b, Node):
        inv = np.float32(1.0) / np.float32(float(b))
        return _n(Op.MUL, scalar(a), const(float(inv), Ty.F32))
    if dev is SpecDevice.CUDA and b.op is Op.ARG and b.name == SCALAR:  # a Python float argument: same path
        return _n(Op.MUL, scalar(a), _n(Op.DIV, const(1.0, Ty.F32), b))
    return _n(Op.DIV, scalar(a), scalar(b))


def maximum(dev: SpecDevice, a: Node, b: Node, is_max: bool = True) -> Node:
    """cpu (BinaryOpsKernel.cpp): NaN wins, else the larger; but on zeros of different sign the vector body
    (``_mm*_max_ps``) returns the second operand and the scalar tail orders -0 < +0, so the result depends
    on the element's position: no per-element model, opaque. cuda (MaxMinElementwiseKernel.cu):
    ``a != a ? a : b != b ? b : ::max(a, b)``."""
    match dev:
        case SpecDevice.CPU:
            what = "maximum" if is_max else "minimum"
            return opaque(f"aten.{what}[cpu: vector body and scalar tail differ at signed zeros]", a, b)
        case SpecDevice.CUDA:
            r = _n(Op.FMAX if is_max else Op.FMIN, a, b)
            return _isnan_or(a, _n(Op.SELECT, _n(Op.ISNAN, b, ty=Ty.BOOL), b, r))
    raise AssertionError(dev)


def where(dev: SpecDevice, c: Node, a, b) -> Node:
    return _n(Op.SELECT, c, scalar(a), scalar(b))


def nan_to_num(dev: SpecDevice, x: Node, nan=None, posinf=None, neginf=None) -> Node:
    # cpu/UnaryOpsKernel.cpp and cuda/UnaryOpsKernel.cu: isnan(a) ? nan : a == inf ? posinf : a == -inf ? neginf : a
    nan_v = scalar(0.0 if nan is None else nan)
    pos = scalar(F32_MAX if posinf is None else posinf)
    neg = scalar(-F32_MAX if neginf is None else neginf)
    inf = const(float("inf"), Ty.F32)
    r = _n(Op.SELECT, _n(Op.EQ, x, const(float("-inf"), Ty.F32), ty=Ty.BOOL), neg, x)
    r = _n(Op.SELECT, _n(Op.EQ, x, inf, ty=Ty.BOOL), pos, r)
    return _n(Op.SELECT, _n(Op.ISNAN, x, ty=Ty.BOOL), nan_v, r)


def gelu(dev: SpecDevice, x: Node, approximate: str = "none") -> Node:
    return opaque("aten.gelu" if approximate == "none" else f"aten.gelu(approximate={approximate!r})", x)


def _cmp(op: Op) -> Callable:
    return lambda dev, a, b: Node(op, Ty.BOOL, (scalar(a), scalar(b)))


def _unary(op: Op) -> Callable:
    return lambda dev, x: Node(op, Ty.F32, (x,))


def _named(name: str) -> Callable:
    return lambda dev, x, *rest, **kw: opaque(name, x)


@dataclass(frozen=True, slots=True)
class Rule:
    build: Callable  # (device, *args, **kwargs) -> Node
    cpu: str  # ATen source of the CPU kernel (under aten/src/ATen/native/)
    cuda: str  # ATen source of the CUDA kernel


_CMP_SRC = ("cpu/BinaryOpsKernel.cpp (lt/le/gt/ge/eq/ne kernels)", "cuda/CompareKernels.cu")
_TRANS = ("cpu/UnaryOpsKernel.cpp, cpu/vml.h (Sleef/MKL)", "cuda/UnaryOpsKernel.cu, libdevice")

RULES: dict[str, Rule] = {
    "aten.relu.default": Rule(relu, "Activation.cpp relu -> cpu/TensorCompareKernel.cpp clamp_min_scalar",
                              "Activation.cpp relu -> cuda/TensorCompare.cu clamp_min_scalar_kernel_impl"),
    "aten.leaky_relu.default": Rule(leaky_relu, "cpu/Activation.cpp leaky_relu_kernel",
                                    "cuda/ActivationLeakyReluKernel.cu"),
    "aten.hardtanh.default": Rule(lambda dev, x, lo=-1.0, hi=1.0: clamp(dev, x, lo, hi),
                                  "Activation.cpp hardtanh -> clamp", "Activation.cpp hardtanh -> clamp"),
    "aten.relu6.default": Rule(lambda dev, x: clamp(dev, x, 0.0, 6.0), "Activation.cpp relu6 -> hardtanh",
                               "Activation.cpp relu6 -> hardtanh"),
    "aten.clamp.default": Rule(clamp, "cpu/TensorCompareKernel.cpp clamp_scalar_kernel_impl",
                               "cuda/TensorCompare.cu clamp_scalar_kernel_impl"),
    "aten.clamp.Tensor": Rule(clamp_tensor, "cpu/TensorCompareKernel.cpp clamp_kernel_impl",
                              "cuda/TensorCompare.cu clamp_kernel_cuda"),
    "aten.clamp_min.default": Rule(lambda dev, x, lo: clamp(dev, x, lo, None),
                                   "cpu/TensorCompareKernel.cpp clamp_min_scalar_kernel_impl",
                                   "cuda/TensorCompare.cu clamp_min_scalar_kernel_impl"),
    "aten.clamp_max.default": Rule(lambda dev, x, hi: clamp(dev, x, None, hi),
                                   "cpu/TensorCompareKernel.cpp clamp_max_scalar_kernel_impl",
                                   "cuda/TensorCompare.cu clamp_max_scalar_kernel_impl"),
    "aten.hardsigmoid.default": Rule(hardsigmoid, "cpu/Activation.cpp hardsigmoid_kernel (/ 6)",
                                     "cuda/ActivationHardsigmoidKernel.cu (* one_sixth)"),
    "aten.hardswish.default": Rule(hardswish, "cpu/Activation.cpp hardswish_kernel (/ 6)",
                                   "cuda/ActivationHardswishKernel.cu (* one_sixth)"),
    "aten.abs.default": Rule(_unary(Op.ABS), "cpu/UnaryOpsKernel.cpp abs_kernel", "cuda/AbsKernel.cu"),
    "aten.neg.default": Rule(_unary(Op.NEG), "cpu/UnaryOpsKernel.cpp neg_kernel", "cuda/UnarySignKernels.cu"),
    "aten.sqrt.default": Rule(sqrt, "cpu/UnaryOpsKernel.cpp sqrt -> cpu/vml.h vsqrt (MKL)",
                              "cuda/UnaryOpsKernel.cu sqrt_kernel_cuda"),
    "aten.rsqrt.default": Rule(rsqrt, "cpu/UnaryOpsKernel.cpp rsqrt_kernel", "cuda/UnaryOpsKernel.cu rsqrt_kernel_cuda"),
    "aten.reciprocal.default": Rule(reciprocal, "cpu/UnaryOpsKernel.cpp reciprocal_kernel",
                                    "cuda/UnaryFractionKernels.cu reciprocal_kernel_cuda"),
    "aten.square.default": Rule(lambda dev, x: pow_scalar(dev, x, 2), "UnaryOps.cpp square -> pow(x, 2)",
                                "UnaryOps.cpp square -> pow(x, 2)"),
    "aten.pow.Tensor_Scalar": Rule(pow_scalar, "Pow.cpp, cpu/PowKernel.cpp pow_tensor_scalar_kernel",
                                   "Pow.cpp, cuda/PowKernel.cu pow_tensor_scalar_kernel"),
    "aten.mul.Tensor": Rule(lambda dev, a, b: _n(Op.MUL, scalar(a), scalar(b)), "cpu/BinaryOpsKernel.cpp mul_kernel",
                            "cuda/BinaryMulKernel.cu"),
    "aten.mul.Scalar": Rule(lambda dev, a, b: _n(Op.MUL, scalar(a), scalar(b)), "cpu/BinaryOpsKernel.cpp mul_kernel",
                            "cuda/BinaryMulKernel.cu"),
    "aten.div.Tensor": Rule(div, "cpu/BinaryOpsKernel.cpp div_true_kernel",
                            "cuda/BinaryDivTrueKernel.cu div_true_kernel_cuda (scalar: * reciprocal)"),
    "aten.div.Scalar": Rule(div, "cpu/BinaryOpsKernel.cpp div_true_kernel",
                            "cuda/BinaryDivTrueKernel.cu div_true_kernel_cuda (scalar: * reciprocal)"),
    "aten.add.Tensor": Rule(add, "ufunc/add.h (vector: vec::fmadd)", "ufunc/add.h (nvcc contracts to fma)"),
    "aten.add.Scalar": Rule(add, "ufunc/add.h (vector: vec::fmadd)", "ufunc/add.h (nvcc contracts to fma)"),
    "aten.sub.Tensor": Rule(sub, "BinaryOps.cpp sub -> add(-alpha)", "BinaryOps.cpp sub -> add(-alpha)"),
    "aten.sub.Scalar": Rule(sub, "BinaryOps.cpp sub -> add(-alpha)", "BinaryOps.cpp sub -> add(-alpha)"),
    "aten.rsub.Scalar": Rule(rsub, "BinaryOps.cpp rsub -> sub(other, self)", "BinaryOps.cpp rsub -> sub(other, self)"),
    "aten.rsub.Tensor": Rule(rsub, "BinaryOps.cpp rsub -> sub(other, self)", "BinaryOps.cpp rsub -> sub(other, self)"),
    "aten.maximum.default": Rule(maximum, "cpu/BinaryOpsKernel.cpp maximum_kernel",
                                 "cuda/MaxMinElementwiseKernel.cu maximum_kernel_cuda"),
    "aten.minimum.default": Rule(lambda dev, a, b: maximum(dev, a, b, False), "cpu/BinaryOpsKernel.cpp minimum_kernel",
                                 "cuda/MaxMinElementwiseKernel.cu minimum_kernel_cuda"),
    "aten.where.self": Rule(where, "cpu/TensorCompareKernel.cpp where_kernel", "cuda/TensorCompare.cu where_kernel"),
    "aten.where.ScalarOther": Rule(where, "TensorCompare.cpp where(cond, self, Scalar) -> where.self",
                                   "TensorCompare.cpp where(cond, self, Scalar) -> where.self"),
    "aten.where.ScalarSelf": Rule(where, "TensorCompare.cpp where(cond, Scalar, other) -> where.self",
                                  "TensorCompare.cpp where(cond, Scalar, other) -> where.self"),
    "aten.nan_to_num.default": Rule(nan_to_num, "cpu/UnaryOpsKernel.cpp nan_to_num_kernel",
                                    "cuda/UnaryOpsKernel.cu nan_to_num_kernel_cuda"),
    "aten.isnan.default": Rule(lambda dev, x: Node(Op.ISNAN, Ty.BOOL, (x,)), "TensorCompare.cpp isnan (x != x)",
                               "TensorCompare.cpp isnan (x != x)"),
    "aten.gelu.default": Rule(gelu, "cpu/Activation.cpp GeluKernelImpl", "cuda/ActivationGeluKernel.cu"),
    **{f"aten.{op}.{ov}": Rule(_cmp(code), *_CMP_SRC) for op, code in
       (("gt", Op.GT), ("lt", Op.LT), ("ge", Op.GE), ("le", Op.LE), ("eq", Op.EQ), ("ne", Op.NE))
       for ov in ("Scalar", "Tensor")},
    **{f"aten.{op}.{ov}": Rule(lambda dev, a, b, _c=code: Node(_c, Ty.BOOL, (a, b)),
                               "cpu/BinaryOpsKernel.cpp (bool and/or)", "cuda/BinaryLogicalOpsKernels.cu")
       for op, code in (("__and__", Op.AND), ("__or__", Op.OR), ("bitwise_and", Op.AND), ("bitwise_or", Op.OR),
                        ("logical_and", Op.AND), ("logical_or", Op.OR)) for ov in ("Tensor", "default")},
    "aten.logical_not.default": Rule(lambda dev, a: Node(Op.NOT, Ty.BOOL, (a,)), "cpu/UnaryOpsKernel.cpp",
                                     "cuda/UnaryOpsKernel.cu"),
    "aten.bitwise_not.default": Rule(lambda dev, a: Node(Op.NOT, Ty.BOOL, (a,)), "cpu/UnaryOpsKernel.cpp",
                                     "cuda/UnaryOpsKernel.cu"),
    # Transcendentals: named, never evaluated (their bits depend on the library implementation).
    **{f"aten.{op}.default": Rule(_named(f"aten.{op}"), *_TRANS) for op in
       ("sigmoid", "tanh", "exp", "log", "log1p", "erf", "softplus", "elu", "silu", "mish", "selu")},
}


def rule_for(target: str) -> Rule | None:
    return RULES.get(target)


def supported_ops() -> tuple[str, ...]:
    return tuple(sorted(RULES))


__all__ = ["DEFAULT_DEVICE", "RULES", "Rule", "SpecDevice", "rule_for", "supported_ops"]
