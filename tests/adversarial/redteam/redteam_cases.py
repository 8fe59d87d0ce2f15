"""The red-team table: each finding (a hand-edited record the checker mishandles) and each probe the checker
handled correctly, with the expected behaviour and, for soundness findings, the shape and lane where the
independent oracle (``oracle.py``, Triton's interpreter) shows the wide and narrowed kernels disagree.

Records are built from real captured ones (``data/kernels/``) by ``tests/adversarial/adv_records.py``'s edits or
by ``build.record``; ``materialise.py`` writes them under ``tests/adversarial/redteam/<id>/`` (committed), and
the tests load those files as a user would. Expected outcomes:

* ``NOT_CERTIFIED``: no mode may print CERTIFIED (refused, out-of-class or an input error are all correct);
* ``(strict, observable)`` pairs of verdicts, or ``INPUT_ERROR``;
* ``NO_TRACEBACK``: any verdict or an input error, never another exception.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from redteam_build import record  # noqa: E402
from adv_records import TILE, base, chain, guards, module, rename_symbol, signature, size, src, symbol  # noqa: E402

from workbench.capture.record import source_hash  # noqa: E402

NOT_CERTIFIED, INPUT_ERROR, NO_TRACEBACK = "not-certified", "input-error", "no-traceback"
TIMELY = "timely"  # a verdict or an input error within TIMELY_SECONDS
C, R, O = "certified", "refused", "out-of-class"

STORE = "tl.store(out_ptr0 + (x2), tmp0, xmask)"
S27 = 2**29 - 1  # tile at s27 = 2**29-1, s77 = 2: xnumel = 2**31-4 satisfies both guards; last block's lanes
TILE_BIG = {"ks0": 2 * S27, "ks1": S27, "xnumel": 4 * S27}
LAST_BLOCK = (4 * S27 - 1) // 1024

SIG1 = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ks0": "i64", "xnumel": "i32", "XBLOCK": "constexpr"}
BODY1 = '''def triton_poi_fused_0(in_ptr0, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tl.store(out_ptr0 + ({offset}), tmp0, xmask)
'''


@dataclass(frozen=True)
class Case:
    id: str
    make: object  # () -> record dict
    expect: object
    klass: str  # issue 11 class or the new class this finding opens
    note: str  # how the oracle confirmed it / why the probe's outcome is right
    oracle: dict | None = None  # {"args", "pid", "xblock", "fill"}: a lane where W and N disagree
    raw: bool = False  # the JSON text is written verbatim by make() (returns str)


def edited(rel, *edits):
    def make():
        d = chain(*edits)(base(rel))
        d["source_hash"] = source_hash(d["source"], d["name"])
        return d
    return make


def custom(offset, size_args, guards, symbols=None):
    return lambda: record("triton_poi_fused_0", BODY1.format(offset=offset), SIG1, size_args, {"xnumel": "s99"},
                          symbols or {"s27": 2, "s77": 2, "s99": 2}, guards)


def duplicate_guards():
    d = base(TILE)
    text = json.dumps(d, indent=1, sort_keys=True)
    # the real guards first, then an empty list: json keeps the last one, another reader the first
    return text.replace('\n "index_dtype"', '\n "guards": [],\n "index_dtype"', 1)


FINDINGS = [
    Case("i1-sub-wraps", edited(TILE, src(STORE, "t = (x0 < 3) - True\n    tl.store(out_ptr0 + (x2 + ks0*t.to(tl.int32)), tmp0, xmask)")),
         NOT_CERTIFIED, "integer typing: int1 arithmetic",
         "Triton types (x0<3) - True as int1 (arith.subi i1, then arith.extui to i32: checked in TTIR); the checker "
         "bounds it by [-1, 0] and checks it against a *signed* 1-bit range, but int1 is unsigned: the value is 1 "
         "for x0 >= 3. Oracle: the store offset x2 + ks0 is 3221224446 in W and -1073742850 in N at lane 0 of "
         "the last block (s27=2**29-1, s77=2).",
         {"args": TILE_BIG, "pid": LAST_BLOCK, "xblock": 1024}),
    Case("i1-neg-wraps", edited(TILE, src(STORE, "t = -(x0 < 3)\n    tl.store(out_ptr0 + (x2 + ks0*t.to(tl.int32)), tmp0, xmask)")),
         NOT_CERTIFIED, "integer typing: int1 arithmetic",
         "-(x0<3) is 0 - x in int1 (semantic.minus): 1 where x0 < 3; the checker's interval is [-1, 0]. Oracle "
         "at s27=357913941, s77=3 (xnumel=2147483646): lane 342 of block 1398101 (xindex=1431655766, x0=2) "
         "stores at 2147483648 in W and -2147483648 in N.",
         {"args": {"ks0": 715827882, "ks1": 357913941, "xnumel": 2147483646}, "pid": 1398101, "xblock": 1024}),
    Case("uint32-literal-with-bool", edited(TILE, src(STORE, "u = (x0 < 3) + 3000000000\n    w = u + ks0 + ks0 + ks0\n"
                                                              "    tl.store(out_ptr0 + (x2), tmp0, xmask & (w < 2147483647))")),
         NOT_CERTIFIED, "1. integer literals (unsigned)",
         "3000000000 is uint32 (to_tensor_type) and a bool operand does not absorb a weak int (rule 0 needs the "
         "scalar's kind <= the tensor's), so (x0<3) + 3000000000 is uint32 in Triton, and u + ks0 stays uint32 in "
         "N (u32 with i32 -> u32) but is int64 in W; kir types the literal as its int64 placeholder without "
         "refusing. Observable certifies. Oracle at s27=2**28, s77=2 (ks0=2**29): u + 3*ks0 is 4610612736 in W "
         "(mask false) and wraps to 315645440 in N (mask true): the store happens in N only. Triton's own "
         "frontend (TTIR, CPU): the comparison is `arith.cmpi ult ... i32` with ks0 i32 and `cmpi slt ... i64` "
         "with ks0 i64.",
         {"args": {"ks0": 2**29, "ks1": 2**28, "xnumel": 2**30}, "pid": 0, "xblock": 8}),
    Case("uint32-literal-in-where", edited(TILE, src(STORE, "u = tl.where(xmask, 3000000000, x0 < 3)\n    w = u + ks0 + ks0 + ks0\n"
                                                             "    tl.store(out_ptr0 + (x2), tmp0, xmask & (w < 2147483647))")),
         NOT_CERTIFIED, "1. integer literals (unsigned)",
         "as uint32-literal-with-bool, through tl.where (semantic.where promotes its branches like a binary op). "
         "Oracle: the store mask differs at s27=2**28, s77=2.",
         {"args": {"ks0": 2**29, "ks1": 2**28, "xnumel": 2**30}, "pid": 0, "xblock": 8}),
    Case("int-payload-add", edited(TILE, signature("in_ptr0", "*i32"), signature("out_ptr0", "*i64"),
                                   src(STORE, "tmp1 = tmp0 + ks0\n    tl.store(out_ptr0 + (x2), tmp1, xmask)")),
         NOT_CERTIFIED, "integer arithmetic on loaded values (payload)",
         "tmp0 (int32 data) + ks0 is int64 in W and int32 in N; the checker treats it as opaque payload and asks "
         "nothing. Oracle: with the loaded value 2**31-1 and ks0=8 (s27=4, s77=3) W stores 2147483655, N "
         "stores -2147483641 on every active lane.",
         {"args": {"ks0": 8, "ks1": 4, "xnumel": 24}, "pid": 0, "xblock": 8, "fill": {"in_ptr0": 2147483647}}),
    Case("dtype-of-size-arg", edited(TILE, src(STORE, "tl.store(out_ptr0 + (x2.to(ks0.dtype) * 2), tmp0, xmask)")),
         NOT_CERTIFIED, "declared types: .dtype of a narrowed argument",
         "ks0.dtype is read at parse time as int64 and kept as an explicit cast in N, but the narrowed kernel's "
         "ks0.dtype is int32: x2*2 is computed in int32 there. Oracle: offset 4294965248 (W) vs -2048 (N) at "
         "lane 0 of the last block. Strict refuses (for another reason); observable certifies.",
         {"args": TILE_BIG, "pid": LAST_BLOCK, "xblock": 1024}),
    Case("splitlines-formfeed", edited(TILE, src(STORE, STORE + "\n    tl.store(out_ptr0 + (x2 + ks0*ks1*ks0), tmp0, xmask)"),
                                       module("triton_helpers.set_driver_to_gpu()", "triton_helpers.set_driver_to_gpu()\n# note\x0cmore")),
         NOT_CERTIFIED, "which text is the kernel",
         "a form feed in a comment before the kernel: capture.record.jit_function_text slices str.splitlines() "
         "(which splits at \\x0c, \\x1c-\\x1e, \\x85, \\u2028) with ast's line numbers (which do not), so the "
         "checked text is shifted by one line and loses the kernel's last statement (here an unsafe second "
         "store); source_hash is computed on the same wrong slice, so it matches. Oracle (the module's function "
         "as Python/Triton read it): the second store's offset differs (ks0*ks1*ks0 overflows int32).",
         {"args": {"ks0": 80000, "ks1": 40000, "xnumel": 160000}, "pid": 0, "xblock": 8}),
    Case("splitlines-u2028", edited(TILE, src(STORE, STORE + "\n    tl.store(out_ptr0 + (x2 + ks0*ks1*ks0), tmp0, xmask)"),
                                    module("triton_helpers.set_driver_to_gpu()", "triton_helpers.set_driver_to_gpu()\n# note\u2028more")),
         NOT_CERTIFIED, "which text is the kernel", "as splitlines-formfeed, with U+2028 in the comment.",
         {"args": {"ks0": 80000, "ks1": 40000, "xnumel": 160000}, "pid": 0, "xblock": 8}),
    Case("mod-negative-divisor", custom("x0 - ks0", {"ks0": "Mod(s27, 1 - s77)"},
                                        ["s99 <= 2147483647", "Mod(s27, 1 - s77) <= 1000"]),
         NOT_CERTIFIED, "premises: Mod atoms",
         "premises give every Mod atom the lower bound 0, but sympy's Mod(a, b) is in (b, 0] for b < 0: at "
         "s27=3, s77=2**31-1, s99=100 (every guard holds; 3 % -2147483646 = -2147483643 = ks0, which fits int32) "
         "the store offset x0 - ks0 is 2147483648 in W and -2147483648 in N at lane 5.",
         {"args": {"ks0": -2147483643, "xnumel": 100}, "pid": 0, "xblock": 128}),
    Case("z3-mod-guard", custom("x0 + ks0*ks0", {"ks0": "s27"},
                                ["s99 <= 2147483647", "s27 <= 2147483647", "Mod(s77, -3) <= -1"]),
         NOT_CERTIFIED, "premises: z3 encoding of Mod",
         "z3's % (SMT-LIB mod, never negative) differs from sympy's Mod for a negative divisor: the guard "
         "Mod(s77, -3) <= -1 holds at s77=2 (2 % -3 = -1) but is false for z3, so z3 proves every condition "
         "(the control without that guard is refused). Oracle at s27=50000, s77=2, s99=100: store offset "
         "2500000000 (W) vs -1794967296 (N).",
         {"args": {"ks0": 50000, "xnumel": 100}, "pid": 0, "xblock": 128}),
    Case("vacuous-guards", custom("x0 + ks0*ks0", {"ks0": "s27"}, ["s99 <= 2147483647", "s27 <= 2147483647", "s77 <= 1"]),
         NOT_CERTIFIED, "contradictory premises",
         "s77 >= 2 (lower bound) and the guard s77 <= 1 admit no shape: the certificate is vacuous and says so "
         "nowhere (every condition 'proved'); an honest answer refuses or reports the contradiction. The same "
         "kernel without the guard is refused (z3 shape: ks0*ks0 overflows)."),
    Case("vacuous-symbol-bounds", edited(TILE, src("(ks1*x1 + ((x0 % ks1)))", "(ks1*x1 + ((x0 % ks1)) + ks0*ks1)"),
                                         symbol("s27", upper=1)),
         NOT_CERTIFIED, "contradictory premises",
         "s27 in [2, 1]: no shape; the extra product ks0*ks1 is certified vacuously."),
    Case("ceiling-size-arg", edited(TILE, size("ks1", "ceiling(s27/2)")), NO_TRACEBACK, "real expressions that crash",
         "ks1 = ceiling(s27/2) (an opaque atom): KeyError '_a0' from Poly.to_z3 in discharge.smt_check; the CLI "
         "prints a traceback and exits 1."),
    Case("abs-size-arg", edited(TILE, size("ks1", "Abs(s27)")), NO_TRACEBACK, "real expressions that crash",
         "ks1 = Abs(s27): the same KeyError."),
    Case("pow-nested-guard", edited(TILE, guards(lambda gs: gs + ["((s27 + s77)**64)**64 >= 0"])), TIMELY,
         "records are data: resource limits",
         "a 28-character guard of degree 4096 (each exponent is within symexpr's limit of 64, nesting is not "
         "bounded): the checker expands it and runs for minutes (over 40 s measured, not finished); a degree "
         "limit would make it an input error."),
    Case("duplicate-json-key", duplicate_guards, INPUT_ERROR, "records are data: ambiguous JSON",
         "two \"guards\" keys: json keeps the last (here an empty list) silently; another reader keeps the "
         "first. An ambiguous record should be an input error.", raw=True),
]

PROBES = [
    Case("probe/where-product-store", edited(TILE, src(STORE, "tl.store(out_ptr0 + (x2), tl.where(xmask, ks0*ks1, 0), xmask)")),
         (R, R), "classic", "ks0*ks1 in a stored where branch overflows int32: refused."),
    Case("probe/i1-neg-in-where", edited(TILE, src(STORE, "t = tl.where(x0 < 3, -(x0 < 3), True)\n    tl.store(out_ptr0 + (x2 + ks0*t.to(tl.int32)), tmp0, xmask)")),
         (R, R), "integer typing", "refused (the where's hull is not the wrong [-1, 0])."),
    Case("probe/i1-add", edited(TILE, src(STORE, "t = (x0 < 3) + (x1 < 3)\n    tl.store(out_ptr0 + (x2 + ks0*t.to(tl.int32)), tmp0, xmask)")),
         (R, R), "integer typing", "int1 + int1 can wrap: refused."),
    Case("probe/huge-literal", edited(TILE, src("x2 = xindex", "x2 = xindex + 99999999999999999999999999999 * 0")),
         (O, O), "literals", "not representable in 64 bits: out of class by name."),
    Case("probe/control-extra-product", edited(TILE, src("(ks1*x1 + ((x0 % ks1)))", "(ks1*x1 + ((x0 % ks1)) + ks0*ks1)")),
         (R, R), "classic", "the oracle's control: refused, and the oracle shows the disagreement too.",
         {"args": {"ks0": 80000, "ks1": 40000, "xnumel": 160000}, "pid": 0, "xblock": 8}),
    Case("probe/two-stores-no-formfeed", edited(TILE, src(STORE, STORE + "\n    tl.store(out_ptr0 + (x2 + ks0*ks1*ks0), tmp0, xmask)")),
         (R, R), "which text is the kernel", "splitlines-formfeed without the form feed: refused."),
    Case("probe/z3-mod-guard-control", custom("x0 + ks0*ks0", {"ks0": "s27"}, ["s99 <= 2147483647", "s27 <= 2147483647"]),
         (R, R), "premises", "z3-mod-guard without the Mod guard: refused."),
    Case("probe/symbol-named-I", edited(TILE, rename_symbol("s27", "I")), INPUT_ERROR, "names",
         "sympy's imaginary unit is not a shape symbol: input error."),
    Case("probe/symbol-named-oo", edited(TILE, rename_symbol("s77", "oo")), INPUT_ERROR, "names", "infinity: input error."),
    Case("probe/symbol-named-Min", edited(TILE, rename_symbol("s77", "Min")), INPUT_ERROR, "names", "a function name: input error."),
    Case("probe/symbol-named-ks1", edited(TILE, rename_symbol("s27", "ks1")), (C, C), "names",
         "a shape symbol spelled like a kernel argument is just a symbol (tile's facts, renamed): certified, and "
         "the oracle finds no disagreement at the tile's last block.",
         {"args": TILE_BIG, "pid": LAST_BLOCK, "xblock": 1024, "agree": True}),
    Case("probe/int64-cast-then-sub", edited(TILE, src(STORE, "tl.store(out_ptr0 + (x2.to(tl.int64) * 2 - ks0), tmp0, xmask)")),
         (R, C), "which text is the kernel", "strict refuses (x2*2 leaves int32), observable certifies, and the "
         "oracle agrees at xindex=2**30 (where the int32 product would wrap).",
         {"args": TILE_BIG, "pid": 2**20, "xblock": 1024, "agree": True}),
    Case("probe/divisor-always-zero", edited(TILE, src("x1 = xindex // ks0", "x1 = xindex // (ks0 - 2*ks1)")),
         (R, R), "division", "ks0 - 2*ks1 == 0: refused (CLI: exit 1 with a counterexample, no traceback)."),
    Case("probe/divisor-maybe-zero", edited(TILE, src("x1 = xindex // ks0", "x1 = xindex // (ks1 - 3)")),
         (R, R), "division", "zero at s27 = 3: refused."),
    Case("probe/int-min-div-minus-one", edited(TILE, src("x1 = xindex // ks0", "x1 = (xindex - 2147483647 - 1) // (ks1 - ks1 - 1)")),
         (R, R), "division", "INT_MIN // -1 shape: refused."),
    Case("probe/mod-negative-divisor-in-kernel", edited(TILE, src("x0 = (xindex % ks0)", "x0 = (xindex % (3 - ks1))")),
         (R, R), "division", "divisor 3 - ks1 <= 1: refused with the shape s27 >= 2."),
    Case("probe/lower-bound-absent", edited(TILE, symbol("s27", lower=None)), (R, R), "classic",
         "no lower bound: ks1 may be <= 0: refused."),
    Case("probe/int-payload-to-i32", edited(TILE, signature("in_ptr0", "*i32"), signature("out_ptr0", "*i32"),
                                            src(STORE, "tmp1 = tmp0 + ks0\n    tl.store(out_ptr0 + (x2), tmp1, xmask)")),
         (C, C), "payload", "stored into int32, the int64 sum is truncated to the same bits as N's wrapped sum: "
         "certified is right (oracle: no disagreement with the loaded value 2**31-1).",
         {"args": {"ks0": 8, "ks1": 4, "xnumel": 24}, "pid": 0, "xblock": 8, "fill": {"in_ptr0": 2147483647},
          "agree": True}),
]

# -- issue 13: reductions and indirect indexing (red team after merging ``red`` and ``ind``) ------------------
SUM0 = "sum_dim0/triton_red_fused_sum_0.json"
EMB = "embedding/triton_poi_fused_embedding_0.json"
RED_PRELUDE = ("from torch._inductor.runtime import triton_helpers\n"
               "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\n")
SUM0_LOAD = "tmp0 = tl.load(in_ptr0 + (x0 + ks0*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)"
EMB_ASSERT = 'tl.device_assert(((0 <= tmp0) & (tmp0 < ks1)) | ~(xmask), "index out of bounds: 0 <= tmp0 < ks1")'
EMB_USE = "tmp2 = tl.load(in_ptr1 + (x0 + ks0*tmp0), xmask, eviction_policy='evict_last')"

SUML = "sum_last/triton_red_fused_sum_0.json"
ARGMAX = "../../tests/check/data/families/argmax_last/triton_red_fused_argmax_0.json"
GN_PER = "../../tests/kir/data/reduction/triton_per_fused_native_group_norm_1.json"
SUML_LOAD = "tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)"

RED_FINDINGS = [
    Case("tile-transposed-arange", edited(SUML,
         src("xmask = xindex < xnumel", "xmask = xindex < xnumel\n    xmask_t = (xoffset + tl.arange(0, XBLOCK)[None, :]) < xnumel"),
         src(SUML_LOAD, SUML_LOAD.replace("r0_mask & xmask", "r0_mask & xmask_t"))),
         NOT_CERTIFIED, "subscripts read as shape-only: an arange laid along the other axis of a 2-D tile",
         "`tl.arange(0, XBLOCK)[None, :]` varies along the r axis of the [XBLOCK, R0_BLOCK] tile, but kir read every "
         "subscript as the identity (the same interned node as xindex), so the mask `xmask_t` passed for the x "
         "range atom: CERTIFIED both modes. Oracle (XBLOCK = R0_BLOCK = 4, ks0 = r0_numel = 5, xnumel = 429496729, "
         "last block): load offset 2147483650 (W) vs -2147483646 (N) on a lane whose mask holds.",
         {"args": {"ks0": 5, "xnumel": 429496729, "r0_numel": 5}, "pid": 107374182, "xblock": 4,
          "blocks": {"R0_BLOCK": 4}, "prelude": RED_PRELUDE}),
    Case("tile-bare-arange-in-2d", edited(SUML, src("xindex = xoffset + tl.arange(0, XBLOCK)[:, None]",
                                                       "xindex = xoffset + tl.arange(0, XBLOCK)[:, None]\n    xfl = xoffset + tl.arange(0, XBLOCK)"),
         src(SUML_LOAD, SUML_LOAD.replace("r0_mask & xmask", "r0_mask & (xfl < xnumel)"))),
         NOT_CERTIFIED, "subscripts read as shape-only: a bare 1-D arange broadcasts along the last axis",
         "a 1-D `tl.arange(0, XBLOCK)` in a 2-D tile is right-aligned (numpy broadcasting): it varies along r, "
         "the same hole as tile-transposed-arange without a subscript."),
    Case("acc-retyped-by-init", edited(SUM0,
         src("_tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)", "_tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int32) + 0*ks0"),
         src("tmp3 = _tmp2 + tmp1", "tmp3 = _tmp2 + r0_1"),
         src("tl.store(out_ptr0 + (x0), tmp2, xmask)", "tl.store(out_ptr0 + (x0), tmp2.to(tl.float32), xmask)")),
         NOT_CERTIFIED, "an integer accumulator whose init's type depends on a narrowed argument",
         "the accumulator takes its init's type (int64 in W, int32 in N: Triton types a loop-carried value by its "
         "init), but kir instantiated the ACC leaf with W's type in N, so the update looked int64 in both and the "
         "retyped-payload rule never fired: CERTIFIED both modes. Oracle (r0_numel=100000, ks0=xnumel=2): stored "
         "4999949824.0 (W) vs 704982720.0 (N).",
         {"args": {"ks0": 2, "xnumel": 2, "r0_numel": 100000}, "pid": 0, "xblock": 2,
          "blocks": {"R0_BLOCK": 1024}, "prelude": RED_PRELUDE}),
]

RED_PROBES = [
    Case("probe/red-mask-dropped", edited(SUM0, src(SUM0_LOAD, SUM0_LOAD.replace("r0_mask & xmask", "xmask"))),
         NOT_CERTIFIED, "reductions", "a load in the loop without r0_mask reads past r0_numel: TAIL_MASKED."),
    Case("probe/red-step-doubled", edited(SUM0, src("tl.range(0, r0_numel, R0_BLOCK)", "tl.range(0, r0_numel, 2*R0_BLOCK)")),
         (O, O), "reductions", "only `tl.range(0, r0_numel, R0_BLOCK)` is a modelled loop."),
    Case("probe/red-start-one", edited(SUM0, src("tl.range(0, r0_numel, R0_BLOCK)", "tl.range(1, r0_numel, R0_BLOCK)")),
         (O, O), "reductions", "a non-zero start is refused by name."),
    Case("probe/red-bound-size-arg", edited(SUM0, src("tl.range(0, r0_numel, R0_BLOCK)", "tl.range(0, ks0, R0_BLOCK)")),
         (O, O), "reductions", "a loop bounded by a narrowed size argument is refused by name."),
    Case("probe/red-index-overflows-int32", edited(SUM0, src("r0_1 = r0_index", "r0_1 = r0_index + ks0*x0")),
         NOT_CERTIFIED, "reductions", "ks0*x0 + ks0*r0_1 is not bounded by the numel guard."),
    Case("probe/red-mask-le", edited(SUM0, src("r0_mask = r0_index < r0_numel", "r0_mask = r0_index <= r0_numel")),
         NOT_CERTIFIED, "reductions", "`<=` is no range atom: the tail lane r0_numel is read."),
    Case("probe/red-store-in-loop", edited(SUM0, src("_tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)",
         "_tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)\n        tl.store(out_ptr0 + (x0 + ks0*r0_1), tmp3, xmask)")),
         NOT_CERTIFIED, "reductions", "a store in the loop without r0_mask."),
    Case("probe/assert-le", edited(EMB, src("(tmp0 < ks1)) | ~(xmask)", "(tmp0 <= ks1)) | ~(xmask)")),
         (O, O), "indirect", "`v <= hi` is not Inductor's form: refused by name."),
    Case("probe/assert-stronger-mask", edited(EMB, src("| ~(xmask)", "| ~(xmask & (x1 < 5))")),
         NOT_CERTIFIED, "indirect", "the premise holds on fewer lanes than the use: no bound on the use's lanes."),
    Case("probe/assert-after-use", edited(EMB, src(EMB_ASSERT + "\n    " + EMB_USE, EMB_USE + "\n    " + EMB_ASSERT)),
         (O, O), "indirect", "a use before the assert sees the raw load: indirect indexing without a premise."),
    Case("probe/assert-other-tensor", edited(EMB, src(EMB_USE, "tmp9 = tl.load(in_ptr0 + (x0), xmask)\n    "
                                                       + EMB_USE.replace("ks0*tmp0", "ks0*tmp9"))),
         (O, O), "indirect", "the used index is another load than the asserted one."),
    Case("probe/assert-copy-before", edited(EMB, src(EMB_ASSERT, "tmp9 = tmp0\n    " + EMB_ASSERT), src("ks0*tmp0)", "ks0*tmp9)")),
         (O, O), "indirect", "a copy taken before the assert is not bounded by it."),
    Case("probe/assert-no-lower", edited(EMB, src("((0 <= tmp0) & (tmp0 < ks1))", "(tmp0 < ks1)")),
         NOT_CERTIFIED, "indirect", "without a lower bound a negative index makes ks0*tmp0 unbounded below."),
    Case("probe/assert-bound-product", edited(EMB, src("(tmp0 < ks1)) | ~(xmask)", "(tmp0 < ks1*ks1)) | ~(xmask)")),
         NOT_CERTIFIED, "indirect", "a bound whose own value wraps in N cannot be a premise."),
]

# -- issue 13, small-width models (branch ``small``): red team against reductions and indirect indexing ---------
SUML_UPDATE = "        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)"
SUML_RNUMEL = "    rnumel = r0_numel"
STATIC_NUMEL = "    r0_numel = 2147483647\n    rnumel = r0_numel"
INDIRECT_SUM = '''def triton_red_fused_sum_9(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp9 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp9) & (tmp9 < ks1)) | ~(xmask), "index out of bounds: 0 <= tmp9 < ks1")
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*tmp9), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
'''


def indirect_sum():
    """A row sum through a loaded row index (an embedding bag, written by hand from sum_last's text)."""
    sig = {"in_ptr0": "*fp32", "in_ptr1": "*i64", "out_ptr0": "*fp32", "ks0": "i64", "ks1": "i64",
           "xnumel": "i32", "r0_numel": "i32", "XBLOCK": "constexpr", "R0_BLOCK": "constexpr"}
    return record("triton_red_fused_sum_9", INDIRECT_SUM, sig, {"ks0": "s27", "ks1": "s36"},
                  {"xnumel": "s77", "r0_numel": "s27"}, {"s27": 2, "s36": 2, "s77": 2},
                  ["s27*s77 <= 2147483647", "s27*s36 <= 2147483647", "s77 <= 2147483647"])


SMALL_FINDINGS = [
    Case("red-static-numel-loop-wraps", edited(SUML, src(SUML_RNUMEL, STATIC_NUMEL),
                                               src(SUML_LOAD, SUML_LOAD.replace("r0_1 + ks0*x0", "r0_1 - ks0"))),
         NOT_CERTIFIED, "LOOP_BOUND emitted only for an r0_numel parameter, not for a static one",
         "`r0_numel = 2147483647` in the body: the loop's offset wraps (Triton lowers `tl.range` to an i32 "
         "`add` without nsw and `icmp slt`; the LLVM IR of this loop, triton 3.7.1 on a cuda:89 target, is an "
         "unconditional back edge: the kernel runs forever with negative offsets), but the bound 0 <= r0_offset "
         "was used without the LOOP_BOUND condition that justifies it: CERTIFIED both modes. At a wrapped "
         "offset the load reads (r0_1 - ks0) as `sub i64` in W and `sub i32` in N. Small model (6 bits, literal "
         "scaled to 31, R0_BLOCK=2, step -32): load offset -34 (W) vs 30 (N). Triton's interpreter runs the "
         "loop with Python's range and cannot show it."),
    Case("red-store-x-free-offset", edited(SUML, src(SUML_UPDATE, SUML_UPDATE + "\n        tl.store(out_ptr0 + "
                                                "tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK]), (ks0*x0).to(tl.float32), r0_mask)")),
         NOT_CERTIFIED, "a store that names no x lane is performed on tail x lanes, but its value was checked "
         "only on active ones",
         "the x-mask exemption (a weight row read by every x lane) looked at the offset and mask only; a "
         "store also writes its value, here ks0*x0 from a tail row: CERTIFIED both modes. Oracle (ks0 = "
         "r0_numel = 3, xnumel = 715827882, XBLOCK = 4, last block): stored 2147483648.0 (W) vs -2147483648.0 "
         "(N) by the tail row x0 = 715827883. Small model (6 bits): 35 vs -29 at x0 = 7, xnumel = 5.",
         {"args": {"ks0": 3, "xnumel": 715827882, "r0_numel": 3}, "pid": 178956970, "xblock": 4,
          "blocks": {"R0_BLOCK": 4}, "prelude": RED_PRELUDE}),
    Case("red-store-r-free-offset", edited(SUML, src(SUML_UPDATE, SUML_UPDATE + "\n        tl.store(out_ptr0 + "
                                                "tl.broadcast_to(x0, [XBLOCK, R0_BLOCK]), (r0_1 + ks0*x0).to(tl.float32), xmask)")),
         NOT_CERTIFIED, "a store in the loop that names no r lane is performed on tail r lanes, but its value "
         "was checked only where r0_index < r0_numel",
         "the store's offset and mask do not depend on the r lane, so no r0_mask was required, while its class "
         "(from the value, which does) got the r range atom: the value r0_1 + ks0*x0 was bounded by "
         "r0_numel - 1 + ks0*x0 although the store runs at r0_index up to r0_numel + R0_BLOCK - 2: CERTIFIED "
         "both modes. Oracle (ks0 = r0_numel = 3, xnumel = 715827882, XBLOCK = 1, R0_BLOCK = 8, last row): "
         "stored 2147483648.0 (W) vs -2147483648.0 (N) at r lanes 5-7. Small model: found at 8 bits (s27=9, "
         "s77=14, R0_BLOCK=4, step 8: 128 vs -128), not at 6 bits where the model's R0_BLOCK was at most 2.",
         {"args": {"ks0": 3, "xnumel": 715827882, "r0_numel": 3}, "pid": 715827881, "xblock": 1,
          "blocks": {"R0_BLOCK": 8}, "prelude": RED_PRELUDE}),
]

SUML_STORE = "    tl.store(out_ptr0 + (x0), tmp2, xmask)"
FEEDS_INDEX = (SUML_STORE, "    tmp5 = tmp2.to(tl.int64)\n"
               "    tl.device_assert(((0 <= tmp5) & (tmp5 < ks0)) | ~(xmask), \"index out of bounds: 0 <= tmp5 < ks0\")\n"
               "    tmp6 = tl.load(in_ptr0 + (tmp5 + ks0*x0), xmask)\n"
               "    tl.store(out_ptr0 + (x0), tmp6, xmask)")

SMALL_PROBES = [
    Case("probe/red-reduction-feeds-index", edited(SUML, src(*FEEDS_INDEX)), (C, C), "reductions + indirect",
         "a row sum cast to int64 and asserted in [0, ks0) indexes a second load: the premise bounds it; the "
         "small model enumerates the asserted value itself (kir.evaluate(assumed=...)) and agrees."),
    Case("probe/red-reduction-feeds-index-int32", edited(SUML, src(FEEDS_INDEX[0], FEEDS_INDEX[1].replace(
        "tmp2.to(tl.int64)", "tmp2.to(tl.int32)").replace("(tmp5 + ks0*x0)", "(tmp5*ks0 + x0)"))),
         NOT_CERTIFIED, "reductions + indirect",
         "the same index cast to int32 times ks0: int64 in W, int32 in N, and (ks0-1)*ks0 is not bounded by "
         "the guards; the small model finds 36 (W) vs -28 (N) at s27=12, s77=2, index value 3."),
    Case("probe/red-indirect-sum", indirect_sum, (C, C), "reductions + indirect",
         "a row index asserted before the loop and used in every step: bounded on the lanes the assert's "
         "mask covers; the small model (every index value in range) agrees."),
    Case("probe/red-loop-r0-minus-size", edited(SUML, src(SUML_LOAD, SUML_LOAD.replace("r0_1 + ks0*x0", "r0_1 - ks0"))),
         (C, C), "reductions", "with a dynamic r0_numel, LOOP_BOUND keeps the offset from wrapping: r0_1 - ks0 "
         "fits; the small model (with the loop's i32 wrap modelled) agrees."),
    Case("probe/red-index-load-mask-narrower", edited(EMB, src("tmp0 = tl.load(in_ptr0 + (x1), xmask,",
                                                               "tmp0 = tl.load(in_ptr0 + (x1), xmask & (x0 < 2),")),
         NOT_CERTIFIED, "indirect", "the assert covers lanes where the index load is masked off (no other=): "
         "an unspecified index reaches an address (DEFINED_VALUE)."),
    Case("probe/red-update-without-r0-mask", edited(ARGMAX, src("_tmp2, _tmp2_index, tmp1, rindex",
                                                               "_tmp2, _tmp2_index, tmp1, (rindex + ks0*x0).to(tl.int32)"),
                                                    src("_tmp2_index = tl.where(r0_mask & xmask,", "_tmp2_index = tl.where(xmask,")),
         NOT_CERTIFIED, "reductions", "an accumulator update not masked by r0_mask takes its index on tail r "
         "lanes too, where r0_index + ks0*x0 is not bounded by the guards."),
    Case("probe/red-update-index-under-r0-mask", edited(ARGMAX, src("_tmp2, _tmp2_index, tmp1, rindex",
                                                                   "_tmp2, _tmp2_index, tmp1, (rindex + ks0*x0).to(tl.int32)")),
         (C, C), "reductions", "the same index under the update's r0_mask: bounded by r0_numel - 1 + ks0*x0, "
         "which the numel guard keeps in int32."),
    Case("probe/red-persistent-block-below-numel", edited(GN_PER, src("R0_BLOCK: tl.constexpr = 8", "R0_BLOCK: tl.constexpr = 4")),
         (C, C), "reductions", "R0_BLOCK = 4 < r0_numel = 6: lanes 4 and 5 are never read, by either kernel; "
         "verdicts as for the captured kernel. (Written on branch small as (refused, certified): strict refused "
         "6*xindex there; on the merged main 6*xindex <= 24*s21 - 6 is proved from 24*s21 <= 2**31-1 and strict "
         "certifies, as the small model agrees at 7-9 bits.)"),
]

from red2_cases import cases as _red2_cases  # noqa: E402  (issue 13 red team red2: premises, scans, uniform rules)

RED2_FINDINGS, RED2_PROBES = _red2_cases(Case)
FINDINGS += RED_FINDINGS + SMALL_FINDINGS + RED2_FINDINGS
PROBES += RED_PROBES + SMALL_PROBES + RED2_PROBES
ALL = FINDINGS + PROBES


def directory(case: Case) -> Path:
    return HERE / case.id.replace("probe/", "probe-")
