"""Kernel IR types and Triton's promotion rules.

Stage: kir. Types are integers of any width >= 1 (``i1``, ``i32``, ``i64`` and the small widths of the
small-model mode, e.g. ``i8``/``i16``), floats (payload only) and pointers. Integers wider than one bit are
signed; ``i1`` is unsigned (Triton lists ``int1`` among ``UINT_TYPES``), its values are 0 and 1 and it
zero-extends.

Promotion follows ``triton/language/semantic.py`` (Triton 3.7.1):

* ``computation_type_impl``: when exactly one operand is a *weak* Python literal whose kind (bool < int <
  float) is at most the other operand's kind, the result has the other operand's type; otherwise
* integer promotion (``integer_promote_impl``, C's usual arithmetic conversions): equal signedness -> the
  wider type; signed with unsigned -> the unsigned type if at least as wide, else the signed one (so
  ``i1`` op ``i32`` -> ``i32``);
* ``//`` and ``%`` between operands of different signedness are a type error in Triton (refused here);
* a Python int literal alone (``to_tensor_type``) is ``int32`` in ``[-2**31, 2**31)``, ``uint32`` in
  ``[2**31, 2**32)``, ``int64`` in ``[-2**63, 2**63)``, ``uint64`` in ``[2**63, 2**64)``; the unsigned cases
  are refused wherever the literal's own type would be used (``Builder.standalone``);
* a weak literal absorbed by a typed operand must fit that type (``binary_op_type_checking_impl``:
  "Scalar ... is out of range"), so a literal that fits the wide operand but not the narrowed one makes the
  narrowed kernel fail to compile (refused).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IntType:
    bits: int

    @property
    def signed(self) -> bool:
        return self.bits != 1

    @property
    def min(self) -> int:
        return 0 if self.bits == 1 else -(1 << (self.bits - 1))

    @property
    def max(self) -> int:
        return 1 if self.bits == 1 else (1 << (self.bits - 1)) - 1

    def wrap(self, value: int) -> int:
        """Reduce an exact integer into this type's range (two's complement)."""
        if self.bits == 1:
            return value & 1
        half = 1 << (self.bits - 1)
        return ((value + half) & ((1 << self.bits) - 1)) - half

    def __str__(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True, slots=True)
class FloatType:
    name: str  # Triton's short name: bf16, fp16, fp32, fp64

    @property
    def bits(self) -> int:
        return {"bf16": 16, "fp16": 16, "fp32": 32, "fp64": 64}[self.name]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class PtrType:
    element: IntType | FloatType

    def __str__(self) -> str:
        return f"*{self.element}"


Type = IntType | FloatType | PtrType

i1 = IntType(1)
i8 = IntType(8)
i16 = IntType(16)
i32 = IntType(32)
i64 = IntType(64)
bf16 = FloatType("bf16")
fp16 = FloatType("fp16")
fp32 = FloatType("fp32")
fp64 = FloatType("fp64")

FLOAT_NAMES = ("bf16", "fp16", "fp32", "fp64")

# ``tl.<name>`` dtypes the parser accepts; unsigned integers other than int1 are refused by name.
TL_DTYPES: dict[str, IntType | FloatType] = {
    "int1": i1,
    "int8": i8,
    "int16": i16,
    "int32": i32,
    "int64": i64,
    "bfloat16": bf16,
    "float16": fp16,
    "float32": fp32,
    "float64": fp64,
}
TL_NAME = {v: k for k, v in TL_DTYPES.items()}


def parse_signature_type(text: str) -> Type | None:
    """A Triton signature string (``'*bf16'``, ``'i64'``, ``'i1'``, ``'fp32'``) -> type; ``constexpr`` -> None.

    Raises ``ValueError`` for anything else (the parser turns it into a named refusal)."""
    t = text.strip()
    if t == "constexpr":
        return None
    if t.startswith("*"):
        inner = parse_signature_type(t[1:])
        if inner is None or isinstance(inner, PtrType):
            raise ValueError(text)
        return PtrType(inner)
    if t in FLOAT_NAMES:
        return FloatType(t)
    if t.startswith("i") and t[1:].isdigit():
        return IntType(int(t[1:]))
    raise ValueError(text)


def literal_type(value: int | float | bool, int32: IntType = i32, int64: IntType = i64) -> IntType | FloatType:
    """``semantic.to_tensor_type`` for a Python literal (int32 if it fits, else int64; bool -> int1).

    ``int32``/``int64`` let the small-model mode scale the literal's default type with the index dtype."""
    if isinstance(value, bool):
        return i1
    if isinstance(value, int):
        if -(1 << 31) <= value < (1 << 31):
            return int32
        if -(1 << 63) <= value < (1 << 63):
            return int64
        raise ValueError(f"integer literal {value} does not fit in int64 (Triton would refuse it)")
    return fp32


def _kind(t: Type) -> int:
    # tl.dtype.KIND: BOOLEAN=0 < INTEGRAL=1 < FLOATING=2
    if isinstance(t, IntType):
        return 0 if t.bits == 1 else 1
    if isinstance(t, FloatType):
        return 2
    raise TypeError(f"no kind for {t}")


def integer_promote(a: IntType, b: IntType) -> IntType:
    """``semantic.integer_promote_impl`` (C usual arithmetic conversions)."""
    if a.signed == b.signed:
        return a if a.bits > b.bits else b
    if not a.signed:
        return a if a.bits >= b.bits else b
    return b if b.bits >= a.bits else a


def float_promote(a: Type, b: Type, div_or_mod: bool) -> FloatType:
    """``semantic.computation_type_impl`` rules 1-4 (one operand at least is a float)."""
    names = {str(a), str(b)}
    if "fp64" in names:
        return fp64
    if "fp32" in names:
        return fp32
    if "fp16" in names:
        return fp32 if div_or_mod else fp16
    if names == {"bf16"}:
        return fp32 if div_or_mod else bf16
    return fp32  # bf16 with an integer


def absorbs(a: Type, a_weak: bool, b: Type, b_weak: bool) -> bool:
    """Rule 0 of ``computation_type_impl``: exactly one operand is weak and its kind is at most the other's,
    so the weak literal takes the typed operand's type. Otherwise each literal keeps its *own* type."""
    if a_weak == b_weak:
        return False
    scalar, tensor = (a, b) if a_weak else (b, a)
    return _kind(scalar) <= _kind(tensor)


def computation_type(a: Type, a_weak: bool, b: Type, b_weak: bool, div_or_mod: bool = False) -> Type:
    """``semantic.computation_type_impl``: the common type two operands are converted to."""
    if a_weak != b_weak:
        scalar, tensor = (a, b) if a_weak else (b, a)
        if _kind(scalar) <= _kind(tensor):
            if div_or_mod and isinstance(tensor, FloatType) and tensor.name in ("fp16", "bf16"):
                return fp32
            return tensor
    if isinstance(a, FloatType) or isinstance(b, FloatType):
        return float_promote(a, b, div_or_mod)
    assert isinstance(a, IntType) and isinstance(b, IntType)
    if div_or_mod and a.signed != b.signed:
        raise TypeError(f"// or % between {a} and {b} (different signedness)")
    return integer_promote(a, b)
