"""Bit-exact semantics of the PTX instructions the PTX level models, vectorized over numpy arrays
(stage: floats/ptx).

Values are bit patterns: ``.f32/.b32/.u32/.s32`` as ``uint32`` arrays, the 64-bit types as ``uint64``,
predicates as ``bool``. ``Op`` is one decoded instruction (mnemonic -> fields); ``apply`` evaluates it.
Every rule cites the PTX ISA (version 9.0, shipped with CUDA 13.0) by chapter and instruction name:

=========================  ======================================================================================
instruction                rule (PTX ISA 9.0)
=========================  ======================================================================================
add/sub/mul .f32 .f64      §9.7.3 Floating Point Instructions: add, sub, mul. ``.rn/.rz/.rm/.rp`` round once
                           (IEEE 754); no modifier = ``.rn`` but may be contracted by ptxas (nvcc emits the
                           explicit ``.rn`` when contraction is forbidden). ``.ftz`` flushes subnormal inputs and
                           results to sign-preserving zero; ``.sat`` clamps to [0.0, 1.0], NaN -> +0.0.
fma .f32 .f64              §9.7.3 fma: a*b+c in infinite precision, then one rounding; ``.ftz``, ``.sat`` as add.
mad .f32                   §9.7.3 mad: with a rounding modifier, identical to fma (sm_20+).
div .f32 .f64              §9.7.3 div: ``.rn/.rz/.rm/.rp`` IEEE; ``.full`` (max 2 ulp) and ``.approx`` are
                           implementation-defined -> "undecided".
rcp / sqrt                 §9.7.3 rcp, sqrt: ``.rn/.rz/.rm/.rp`` IEEE 1/x and sqrt; ``.approx`` -> "undecided".
rsqrt sin cos lg2 ex2 tanh §9.7.3 (approximate only) -> "undecided", named.
abs / neg .f32             §9.7.3 abs, neg: clear / flip the sign bit; ``.ftz`` flushes a subnormal input first.
                           The ISA leaves the NaN result unspecified; modelled as the sign-bit operation (only
                           visible under the payload NaN policy, which the docs flag).
min / max .f32             §9.7.3 min, max: one NaN operand -> the other operand; both NaN -> canonical NaN;
                           ``.NaN`` -> canonical NaN if either is NaN; -0.0 < +0.0.
copysign .f32              §9.7.3 copysign: the sign of a with the rest of b.
setp / selp                §9.7.7 setp: eq ne lt le gt ge are false when an operand is NaN; equ neu ltu leu gtu geu
                           are true then; num/nan test orderedness; ``.and/.or/.xor`` combine with a third
                           predicate; ``.ftz`` flushes inputs. Integers: signed (.s) and unsigned (.u/.b; lo ls hi
                           hs). selp: d = c ? a : b.
cvt                        §9.7.9 cvt: float->float rounds with ``.rn/.rz/.rm/.rp`` (f64->f32) or is exact
                           (f32->f64); ``.rni/.rzi/.rmi/.rpi`` round to integral; float->int saturates to the
                           range, NaN -> 0; int->float rounds with the mode; int->int truncates / extends.
integer ops                §9.7.1 Integer Arithmetic (add sub mul.lo/.hi/.wide mad.lo/.wide min max abs neg div
                           rem) and §9.7.8 Logic and Shift (and or xor not shl shr): two's complement, wrapping.
NaN results                §9.7.3 (introduction): arithmetic that produces a NaN returns the canonical NaN
                           0x7FFFFFFF, whatever the operands' payloads.
=========================  ======================================================================================

Limits: no f16/bf16/f16x2, no ``.f64`` directed rounding or ``.f64`` fma on large arrays (gmpy2 per element),
no ``testp``, ``lop3``, ``prmt``, ``bfe``; those are refused by name when they reach the evaluator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.floats.evaluate import fma_f32
from workbench.floats.ptx.parse import PtxUnsupportedError
from workbench.floats.ptx.rounding import Rnd, add32, div32, fma32, from_int32, mul32, round32, round_integral, sqrt32

CANONICAL_NAN32 = np.uint32(0x7FFFFFFF)
CANONICAL_NAN64 = np.uint64(0x7FFFFFFFFFFFFFFF)
TYPES = {"f32": 32, "b32": 32, "u32": 32, "s32": 32, "f64": 64, "b64": 64, "u64": 64, "s64": 64, "pred": 1,
         "b16": 16, "u16": 16, "s16": 16, "b8": 8, "u8": 8, "s8": 8}
DTYPE = {1: np.bool_, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
SIGNED = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
FLOAT = {32: np.float32, 64: np.float64}
# The result is implementation-defined (an approximation whose exact bits the ISA does not give).
IMPLEMENTATION_DEFINED = frozenset({"ex2", "lg2", "sin", "cos", "tanh", "rsqrt"})
ROUNDINGS = {"rn": Rnd.RN, "rz": Rnd.RZ, "rm": Rnd.RM, "rp": Rnd.RP}
INT_ROUNDINGS = {"rni": Rnd.RN, "rzi": Rnd.RZ, "rmi": Rnd.RM, "rpi": Rnd.RP}
CMP = ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
       "num", "nan")


@dataclass(frozen=True, slots=True)
class Op:
    name: str  # base mnemonic
    ty: str  # operand type (for cvt: destination)
    src: str = ""  # cvt: source type
    rnd: Rnd | None = None
    int_rnd: bool = False  # cvt.rni etc.
    ftz: bool = False
    sat: bool = False
    cmp: str = ""  # setp comparison
    bool_op: str = ""  # setp .and/.or/.xor
    nan: bool = False  # min/max .NaN
    approx: str = ""  # "approx" or "full": implementation-defined
    part: str = ""  # mul/mad: lo, hi, wide

    @property
    def implementation_defined(self) -> bool:
        return self.name in IMPLEMENTATION_DEFINED or bool(self.approx)

    @property
    def is_float(self) -> bool:
        return self.ty in ("f32", "f64") or self.src in ("f32", "f64")


def decode(mnemonic: str, line: int) -> Op:
    """``fma.rn.ftz.f32`` -> ``Op(name="fma", ty="f32", rnd=RN, ftz=True)``; unknown modifiers are refused."""
    name, *mods = mnemonic.split(".")
    f: dict = {"name": name}
    types = [m for m in mods if m in TYPES]
    for m in mods:
        if m in TYPES:
            continue
        if name == "setp" and m in CMP and not f.get("cmp"):
            f["cmp"] = m
        elif m in ROUNDINGS:
            f["rnd"] = ROUNDINGS[m]
        elif m in INT_ROUNDINGS:
            f["rnd"], f["int_rnd"] = INT_ROUNDINGS[m], True
        elif m == "ftz":
            f["ftz"] = True
        elif m == "sat":
            f["sat"] = True
        elif m == "NaN":
            f["nan"] = True
        elif m in ("approx", "full"):
            f["approx"] = m
        elif m in ("lo", "hi", "wide"):
            f["part"] = m
        elif name == "setp" and m in ("and", "or", "xor"):
            f["bool_op"] = m
        elif m in ("uni", "global", "nc", "param", "to", "v2", "v4", "ca", "cg", "cs", "lu", "cv", "wb", "wt"):
            continue
        else:
            raise PtxUnsupportedError(f"PTX line {line}: modifier .{m} of {mnemonic} is not modelled")
    if name == "cvt":
        if len(types) != 2:
            raise PtxUnsupportedError(f"PTX line {line}: {mnemonic} needs a destination and a source type")
        f["ty"], f["src"] = types
    else:
        f["ty"] = types[-1] if types else ""
    if f["ty"] in ("f16", "bf16", "f16x2"):
        raise PtxUnsupportedError(f"PTX line {line}: half precision ({mnemonic}) is not modelled")
    return Op(**f)


def width(ty: str) -> int:
    return TYPES[ty]


def _f(bits, ty: str):
    return np.asarray(bits).view(FLOAT[TYPES[ty]])


def _b(x, ty: str):
    return np.asarray(x, FLOAT[TYPES[ty]]).view(DTYPE[TYPES[ty]])


def flush(bits, ty: str):
    """Subnormal -> zero of the same sign (PTX ``.ftz``); only binary32 is flushed (the ISA: .ftz is f32-only)."""
    if ty != "f32":
        return bits
    b = np.asarray(bits, np.uint32)
    return np.where((b & np.uint32(0x7F800000)) == 0, b & np.uint32(0x80000000), b)


def _finish(op: Op, x, canonical: bool):
    """Result handling shared by arithmetic: NaN -> canonical NaN, .sat, .ftz on the result."""
    bits = _b(x, op.ty)
    isnan = np.isnan(x)
    anynan = bool(isnan.any())
    if op.ty == "f32":
        if canonical and anynan:
            bits = np.where(isnan, CANONICAL_NAN32, bits)
        if op.sat:  # clamp to [0, 1]; NaN and -0.0 give +0.0
            v = np.asarray(x, np.float32)
            bits = np.where(isnan | (v <= 0), np.uint32(0), np.where(v > 1, np.uint32(0x3F800000), bits))
        if op.ftz:
            bits = flush(bits, "f32")
    elif canonical and anynan:
        bits = np.where(isnan, CANONICAL_NAN64, bits)
    return bits


def _fma64_rn(a, b, c):
    import gmpy2  # binary64 fma has no exact vectorized model here: one MPFR operation per element

    a, b, c = np.broadcast_arrays(a, b, c)
    if a.size > 1 << 16:
        raise PtxUnsupportedError("fma.rn.f64 on more than 65536 inputs: no vectorized binary64 fma model")
    ctx = gmpy2.ieee(64)
    out = np.empty(a.shape, np.float64)
    for i, (x, y, z) in enumerate(zip(a.flat, b.flat, c.flat)):
        out.flat[i] = float(gmpy2.fma(gmpy2.mpfr(float(x), 53), gmpy2.mpfr(float(y), 53),
                                      gmpy2.mpfr(float(z), 53), context=ctx)) if np.isfinite([x, y, z]).all() \
            else x * y + z
    return out


def _float_arith(op: Op, args, canonical: bool):
    ty = op.ty
    xs = [_f(flush(a, ty) if op.ftz else a, ty) for a in args]
    mode = op.rnd or Rnd.RN
    with np.errstate(all="ignore"):
        if ty == "f64" and mode is not Rnd.RN and op.name not in ("abs", "neg", "min", "max"):
            raise PtxUnsupportedError(f"{op.name}.{mode.value}.f64: directed binary64 rounding is not modelled")
        match op.name:
            case "add":
                r = add32(xs[0], xs[1], mode) if ty == "f32" else xs[0] + xs[1]
            case "sub":
                r = add32(xs[0], -xs[1], mode) if ty == "f32" else xs[0] - xs[1]
            case "mul":
                r = mul32(xs[0], xs[1], mode) if ty == "f32" else xs[0] * xs[1]
            case "fma" | "mad":
                if ty == "f64":
                    r = _fma64_rn(*xs)
                elif mode is Rnd.RN:  # the source level's exact RN fma (double + round-to-odd repair): faster
                    r = fma_f32(xs[0], xs[1], xs[2])
                else:
                    r = fma32(xs[0], xs[1], xs[2], mode)
            case "div":
                r = div32(xs[0], xs[1], mode) if ty == "f32" else xs[0] / xs[1]
            case "rcp":
                one = np.ones_like(xs[0])
                r = div32(one, xs[0], mode) if ty == "f32" else one / xs[0]
            case "sqrt":
                r = sqrt32(xs[0], mode) if ty == "f32" else np.sqrt(xs[0])
            case _:
                raise AssertionError(op.name)
    return _finish(op, r, canonical)


def _minmax(op: Op, a, b):
    ty = op.ty
    if op.ftz:
        a, b = flush(a, ty), flush(b, ty)
    x, y = _f(a, ty), _f(b, ty)
    bx, by = np.asarray(a), np.asarray(b)
    with np.errstate(invalid="ignore"):
        # fmax/fmin: one NaN operand -> the other operand (IEEE 754-2019 maximumNumber/minimumNumber)
        r = np.asarray((np.fmax if op.name == "max" else np.fmin)(x, y)).view(bx.dtype)
        eq = x == y  # equal values have equal bits except +0/-0: max keeps +0 (AND of bits), min -0 (OR)
        if np.any(eq & (x == 0)):
            r = np.where(eq, bx & by if op.name == "max" else bx | by, r)
        nan_bits = CANONICAL_NAN32 if ty == "f32" else CANONICAL_NAN64
        nx, ny = np.isnan(x), np.isnan(y)
        if np.any(nx) or np.any(ny):  # fmax/fmin may return a signalling NaN quieted: pick the operand itself
            r = np.where(nx & ~ny, by, np.where(ny & ~nx, bx, r))
            r = np.where((nx | ny) if op.nan else (nx & ny), nan_bits, r)
    return r


def _setp(op: Op, a, b):
    ty, c = op.ty, op.cmp
    if ty in ("f32", "f64"):
        if op.ftz:
            a, b = flush(a, ty), flush(b, ty)
        x, y = _f(a, ty), _f(b, ty)
        base = c[:-1] if c.endswith("u") else c
        if base in ("num", "nan"):
            un = np.isnan(x) | np.isnan(y)
            return ~un if base == "num" else un
        match base:  # numpy's comparisons are IEEE's: false with a NaN operand, except != (true)
            case "eq":
                r = x == y
            case "ne":
                r = x != y
            case "lt":
                r = x < y
            case "le":
                r = x <= y
            case "gt":
                r = x > y
            case "ge":
                r = x >= y
            case _:
                raise PtxUnsupportedError(f"setp.{c}.{ty} is not a float comparison")
        if c.endswith("u"):  # unordered: also true when an operand is NaN
            return r | np.isnan(x) | np.isnan(y) if base != "ne" else r
        return r & ~(np.isnan(x) | np.isnan(y)) if base == "ne" else r
    w = TYPES[ty]
    x, y = np.asarray(a), np.asarray(b)
    if ty.startswith("s"):
        x, y = x.view(SIGNED[w]), y.view(SIGNED[w])
    match c:
        case "eq":
            return x == y
        case "ne":
            return x != y
        case "lt" | "lo":
            return x < y
        case "le" | "ls":
            return x <= y
        case "gt" | "hi":
            return x > y
        case "ge" | "hs":
            return x >= y
    raise PtxUnsupportedError(f"setp.{c}.{ty} is not an integer comparison")


def _cvt(op: Op, a, canonical: bool):
    dst, src = op.ty, op.src
    dw, sw = TYPES[dst], TYPES[src]
    mode = op.rnd or Rnd.RN
    if src in ("f32", "f64"):
        x = _f(flush(a, src) if op.ftz else a, src)
        if dst in ("f32", "f64"):
            with np.errstate(all="ignore"):
                if op.int_rnd:
                    r = round_integral(x, mode)
                elif dst == "f32" and src == "f64":
                    sp = ~np.isfinite(x)
                    r = np.where(sp, x.astype(np.float32), round32(np.where(sp, 0.0, x), 0.0, mode))
                    r = np.where(x == 0, x.astype(np.float32), r)
                else:
                    r = x.astype(FLOAT[dw])
            return _finish(Op("cvt", dst, ftz=op.ftz, sat=op.sat), r, canonical)
        # float -> integer: round to integral, saturate to the destination range, NaN -> 0
        with np.errstate(invalid="ignore"):
            r = round_integral(x.astype(np.float64), mode)
        lo, hi = (-(2.0 ** (dw - 1)), 2.0 ** (dw - 1) - 1) if dst.startswith("s") else (0.0, 2.0**dw - 1)
        r = np.where(np.isnan(r), 0.0, np.clip(r, lo, hi))
        if dw == 64:  # 2**63 - 1 and 2**64 - 1 are not doubles: clip maps them to 2**63 / 2**64
            big = r >= hi
            ints = np.where(big, 0, r).astype(np.int64 if dst.startswith("s") else np.uint64)
            ints = np.where(big, np.iinfo(np.int64 if dst.startswith("s") else np.uint64).max, ints)
            return ints.view(np.uint64) if dst.startswith("s") else ints.astype(np.uint64)
        return r.astype(np.int64).astype(SIGNED[dw]).view(DTYPE[dw])
    ints = np.asarray(a).view(SIGNED[sw]) if src.startswith("s") else np.asarray(a)
    if dst in ("f32", "f64"):
        if dst == "f64" or mode is Rnd.RN:
            with np.errstate(all="ignore"):
                r = ints.astype(FLOAT[dw])
        elif sw <= 32:
            r = from_int32(ints, mode)
        else:
            raise PtxUnsupportedError(f"cvt.{mode.value}.f32.{src}: directed rounding of 64-bit integers is not modelled")
        return _finish(Op("cvt", dst, sat=op.sat, ftz=op.ftz), r, canonical)
    if op.sat:
        raise PtxUnsupportedError(f"cvt.sat.{dst}.{src} (saturating integer narrowing) is not modelled")
    wide = ints.astype(np.int64) if src.startswith("s") else ints.astype(np.uint64)
    return wide.astype(SIGNED[dw] if dst.startswith("s") else DTYPE[dw]).view(DTYPE[dw])


def _int_arith(op: Op, args):
    ty = op.ty
    w = TYPES[ty]
    dt = DTYPE[w]
    signed = ty.startswith("s")
    a = [np.asarray(x, dt) for x in args]
    sv = [x.view(SIGNED[w]) for x in a] if w in SIGNED else a
    with np.errstate(all="ignore"):
        match op.name:
            case "add":
                return a[0] + a[1]
            case "sub":
                return a[0] - a[1]
            case "mul" | "mad":
                if op.part == "wide":
                    wd = DTYPE[2 * w]
                    x = sv[0].astype(SIGNED[2 * w]).view(wd) if signed else a[0].astype(wd)
                    y = sv[1].astype(SIGNED[2 * w]).view(wd) if signed else a[1].astype(wd)
                    p = x * y
                    return p + (np.asarray(args[2], wd) if op.name == "mad" else wd(0))
                if op.part == "hi":
                    raise PtxUnsupportedError(f"{op.name}.hi.{ty} is not modelled")
                p = a[0] * a[1]
                return p + a[2] if op.name == "mad" else p
            case "min" | "max":
                pick = (sv[0] < sv[1]) if signed else (a[0] < a[1])
                return np.where(pick == (op.name == "min"), a[0], a[1])
            case "div" | "rem":  # C semantics: truncation toward zero; division by zero is undefined in PTX
                x, y = (sv[0], sv[1]) if signed else (a[0], a[1])
                if np.any(y == 0):
                    raise PtxUnsupportedError(f"{op.name}.{ty} by zero (undefined in the PTX ISA)")
                q = np.trunc(x.astype(np.float64) / y.astype(np.float64)) if w < 64 else x // y
                q = q.astype(x.dtype)
                return (q if op.name == "div" else x - q * y).view(dt)
            case "neg":
                return dt(0) - a[0]
            case "abs":
                return np.abs(sv[0]).view(dt)
            case "and":
                return a[0] & a[1]
            case "or":
                return a[0] | a[1]
            case "xor":
                return a[0] ^ a[1]
            case "not":
                return ~a[0]
            case "shl" | "shr":
                n = np.minimum(np.asarray(args[1]).astype(np.uint64), np.uint64(w))
                if op.name == "shl":
                    return np.where(n >= w, dt(0), a[0] << np.minimum(n, w - 1).astype(dt)).astype(dt)
                if signed:  # arithmetic shift; shifts >= width give the sign fill
                    return (sv[0] >> np.minimum(n, w - 1).astype(SIGNED[w])).view(dt)
                return np.where(n >= w, dt(0), a[0] >> np.minimum(n, w - 1).astype(dt)).astype(dt)
    raise AssertionError(op.name)


def apply(op: Op, args, canonical_nan: bool = True):
    """Evaluate ``op`` on bit-pattern arrays ``args`` (sources in PTX order); returns the destination's bits."""
    if op.implementation_defined:
        raise PtxUnsupportedError(f"{op.name}.{op.approx or 'approx'}.{op.ty} is implementation-defined")
    match op.name:
        case "add" | "sub" | "mul" | "fma" | "mad" | "div" | "rcp" | "sqrt" if op.ty in ("f32", "f64"):
            return _float_arith(op, args, canonical_nan)
        case "min" | "max" if op.ty in ("f32", "f64"):
            return _minmax(op, args[0], args[1])
        case "abs" | "neg" if op.ty in ("f32", "f64"):
            b = flush(args[0], op.ty) if op.ftz else np.asarray(args[0])
            sign = DTYPE[TYPES[op.ty]](1 << (TYPES[op.ty] - 1))
            return b & ~sign if op.name == "abs" else b ^ sign
        case "copysign":
            sign = DTYPE[TYPES[op.ty]](1 << (TYPES[op.ty] - 1))
            return (np.asarray(args[1]) & ~sign) | (np.asarray(args[0]) & sign)
        case "setp":
            r = _setp(op, args[0], args[1])
            match op.bool_op:
                case "":
                    return r
                case "and":
                    return r & args[2]
                case "or":
                    return r | args[2]
                case "xor":
                    return r ^ args[2]
        case "selp":
            return np.where(args[2], args[0], args[1])
        case "mov":
            return np.asarray(args[0])
        case "cvt":
            return _cvt(op, args[0], canonical_nan)
        case "add" | "sub" | "mul" | "mad" | "min" | "max" | "div" | "rem" | "neg" | "abs" | "and" | "or" | "xor" | \
             "not" | "shl" | "shr":
            if op.ty == "pred":
                return _pred(op, args)
            return _int_arith(op, args)
    raise PtxUnsupportedError(f"{op.name}.{op.ty} is not modelled by the PTX evaluator")


def _pred(op: Op, args):
    match op.name:
        case "and":
            return args[0] & args[1]
        case "or":
            return args[0] | args[1]
        case "xor":
            return args[0] ^ args[1]
        case "not":
            return ~np.asarray(args[0], bool)
    raise PtxUnsupportedError(f"{op.name}.pred is not modelled")
