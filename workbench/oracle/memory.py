"""Fake memory for the oracle: pointer bases, the value a load returns at an address, and the recorded access.

Stage: oracle. No buffer is ever allocated: each pointer argument gets a distinct 64-bit base far from every
other (:func:`bases`), the interpreter computes addresses exactly as for real memory (``base + element_size *
offset`` in wrapping 64-bit arithmetic), and a load returns a deterministic function of its *address*
(:func:`load_bits`, a SplitMix64 hash) rather than memory contents. So a stored value witnesses which addresses
fed it: if the wide and the narrowed kernel store the same bits at the same address on every active lane, the
same data reached the same operations along the way (up to hash collisions: about 2**-27 per float32 lane,
2**-11 per bfloat16 lane).

Index tables (pointers whose loaded values feed a ``tl.device_assert``-guarded index, see
:mod:`workbench.oracle.asserts`) return :func:`index_values` instead: integers of the pointer's element type
drawn inside the asserted range ``[0, BOUND)`` — both ends (0 and BOUND-1), the middle and hashed interior
values, and ``-BOUND`` and ``-1`` too where Inductor's negative-index wrap is present — again a function of the
address (and the draw's number) only, so both kernels read the same index wherever they read the same address.
The ``outside`` draw (a control) adds entries just past either end and far beyond.

Limits: other integer loads return hashed values: a quarter small non-negative (``< 2**15``), a quarter small
negative, half over the element type's whole range (int64 data far beyond int32, so a payload division computed
in the wrong width shows). Values stored are compared bit for
bit, so NaN payloads and signed zeros count.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

BASE_SHIFT = 56  # pointer i lives at (i + 1) << 56: 2**56 bytes apart, far beyond any offset a valid shape allows
AMBIGUOUS = 1 << 55  # bytes: an address this far from every base is reported raw (a wild offset)

# Element types as the Triton signature spells them -> (numpy storage dtype in the interpreter, byte width).
# The interpreter stores bfloat16 as uint16 and float8 as uint8 (triton/runtime/interpreter.py _get_np_dtype).
ELEMENT = {
    "i1": (np.dtype(bool), 1),
    "i8": (np.dtype(np.int8), 1),
    "u8": (np.dtype(np.uint8), 1),
    "i16": (np.dtype(np.int16), 2),
    "u16": (np.dtype(np.uint16), 2),
    "i32": (np.dtype(np.int32), 4),
    "u32": (np.dtype(np.uint32), 4),
    "i64": (np.dtype(np.int64), 8),
    "u64": (np.dtype(np.uint64), 8),
    "fp16": (np.dtype(np.float16), 2),
    "bf16": (np.dtype(np.uint16), 2),
    "fp32": (np.dtype(np.float32), 4),
    "fp64": (np.dtype(np.float64), 8),
}


class Kind(StrEnum):
    LOAD = "load"
    STORE = "store"


NO_TAG = (0, None, None)


@dataclass(frozen=True, slots=True)
class Access:
    """One ``tl.load``/``tl.store`` executed by one program: per lane the address, the mask and, for a store,
    the stored bits (``None`` for a load). Arrays have the block's shape (``[XBLOCK]`` or ``[YBLOCK, XBLOCK]``)."""

    kind: Kind
    element: str  # pointer element type as the signature spells it ("fp32", "bf16", ...)
    address: np.ndarray  # uint64
    mask: np.ndarray  # bool
    bits: np.ndarray | None  # stored value as unsigned bits of the element's width
    # (source line, reduction loop index or None, r0_offset or None): where in the program the access ran
    tag: tuple[int, int | None, int | None] = NO_TAG


@dataclass(frozen=True, slots=True)
class AssertEvent:
    """One ``tl.device_assert`` executed by one program: what Triton's interpreter computed per lane and the
    oracle's own evaluation of the assert's text (``None`` when it could not evaluate it: ``error`` says why)."""

    tag: tuple[int, int | None, int | None]
    text: str
    triton: np.ndarray  # bool
    own: np.ndarray | None  # bool
    error: str | None = None
    # the asserted index is computed from loaded values (Inductor's indirect-index form): the checker's
    # premise. An assert on an index expression alone (gpt2's ``x0 < 512``) is no premise of the checker, so
    # lanes where it fails are compared like any other.
    premise: bool = True


def bases(pointers: list[str]) -> dict[str, int]:
    """A distinct base address per pointer parameter, in parameter order."""
    return {p: (i + 1) << BASE_SHIFT for i, p in enumerate(pointers)}


def locate(address: int, by_base: dict[str, int]) -> tuple[str, int] | None:
    """(pointer, byte offset) of an address: the nearest base in wrapping 64-bit distance (for reports);
    ``None`` when the address is too far from every base to name one."""
    if len(by_base) > 254:
        raise ValueError("more than 254 pointer parameters do not fit the fake address space")
    best = None
    for name, base in by_base.items():
        delta = ((address - base + (1 << 63)) % (1 << 64)) - (1 << 63)
        if best is None or abs(delta) < abs(best[1]):
            best = (name, delta)
    assert best is not None
    return best if abs(best[1]) < AMBIGUOUS else None


def _splitmix64(x: np.ndarray) -> np.ndarray:
    # SplitMix64's finaliser (Steele, Lea, Flood 2014); uint64 arithmetic wraps in numpy.
    with np.errstate(over="ignore"):
        z = x.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _float_bits(h: np.ndarray, width: int, exp_bits: int, bias: int, spread: int) -> np.ndarray:
    """sign | exponent in [bias, bias + 2**spread) | mantissa, all from the hash: finite values of magnitude in
    [1, 2**(2**spread)) with as many distinct values as the format allows there."""
    man_bits = width - 1 - exp_bits
    sign = (h >> np.uint64(63)) << np.uint64(width - 1)
    exp = (np.uint64(bias) + ((h >> np.uint64(60 - spread)) & np.uint64((1 << spread) - 1))) << np.uint64(man_bits)
    man = h & np.uint64((1 << man_bits) - 1)
    return sign | exp | man


def load_bits(address: np.ndarray, element: str) -> np.ndarray:
    """The value a load returns at each address, in the interpreter's storage dtype for ``element``.

    Floats get a hashed sign, a small hashed exponent and a hashed mantissa (finite, magnitudes in [1, 256) —
    [1, 16) for fp16 — so the few operations of a pointwise kernel stay finite and distinct inputs give
    distinct outputs); integers get hashed values, small of either sign or over the type's whole range."""
    h = _splitmix64(address)
    match element:
        case "fp32":
            return _float_bits(h, 32, 8, 127, 3).astype(np.uint32).view(np.float32)
        case "fp64":
            return _float_bits(h, 64, 11, 1023, 3).view(np.float64)
        case "fp16":
            return _float_bits(h, 16, 5, 15, 2).astype(np.uint16).view(np.float16)
        case "bf16":
            return _float_bits(h, 16, 8, 127, 3).astype(np.uint16)
        case "i1":
            return (h >> np.uint64(63)).astype(bool)
        case "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "i64" | "u64":
            # a quarter small non-negative, a quarter small negative, half over the element's whole range
            # (for int64: far beyond int32, so a division or remainder on loaded data in the wrong width shows)
            dtype = ELEMENT[element][0]
            width = dtype.itemsize * 8
            unsigned = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
            low = h if width == 64 else h & np.uint64((1 << width) - 1)
            out = low.astype(unsigned).view(dtype).copy()
            small = (h >> np.uint64(49)).astype(np.int64)  # < 2**15
            sel = h >> np.uint64(62)
            signed_small = np.where(sel == 0, small, -small - 1)
            pick = sel < 2
            out[pick] = signed_small[pick].astype(dtype)  # wraps modulo the width, as a store of it would
            return out
        case _:
            raise ValueError(f"no load values for element type {element!r}")


def as_bits(values: np.ndarray, element: str) -> np.ndarray:
    """Stored values as unsigned integers of the element's width (bit-exact comparison)."""
    width = ELEMENT[element][1]
    unsigned = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[width]
    arr = np.ascontiguousarray(values)
    if arr.dtype == bool:
        return arr.astype(np.uint8)
    if arr.dtype.itemsize != width:
        arr = arr.astype(ELEMENT[element][0])
    return arr.view(unsigned)


def index_categories(negative: bool, outside: bool) -> int:
    """How many kinds of entry :func:`index_values` cycles through (a launch runs once per kind: see there)."""
    return 4 + 2 * negative + 3 * outside


def index_values(address: np.ndarray, offset: np.ndarray, element: str, bound: int, negative: bool, outside: bool,
                 salt: int) -> np.ndarray:
    """An index table's entries (see the module docstring), in the element's storage dtype. Entry ``offset``
    of draw ``salt`` is of kind ``(offset + salt) mod K``: 0, BOUND-1, BOUND//2, a hashed interior value, and
    (with the wrap) -BOUND and -1, and (``outside``) BOUND, just below the lowest valid value, and BOUND plus a
    hashed amount. Running draws ``salt = 0 .. K-1`` gives every entry every kind — a table of two entries
    (a two-row embedding) still meets both ends and the wrap."""
    dtype = ELEMENT[element][0]
    if dtype.kind not in "iu":
        raise ValueError(f"an index table of element type {element!r}")
    b = max(int(bound), 1)
    h = _splitmix64(address ^ np.uint64((salt * 0x9E3779B97F4A7C15) % (1 << 64)))
    interior = ((h >> np.uint64(3)) % np.uint64(b)).astype(object)
    kinds: list = [0, b - 1, b // 2, None]
    if negative:
        kinds += [-b, -1]
    if outside:
        far = ((h >> np.uint64(20)) % np.uint64(1 << 20)).astype(object)
        kinds += [b, -b - 1 if negative else -1, b + far]
    k = (np.asarray(offset, dtype=np.int64) + salt) % len(kinds)
    out = interior.copy()
    for i, v in enumerate(kinds):
        if v is not None:
            out = np.where(k == i, v, out)
    info = np.iinfo(dtype)
    return np.clip(out.astype(object), info.min, info.max).astype(dtype)
