"""The adversarial table: (id, base record, edit, expected outcome in strict and observable mode).

Outcomes: ``certified``, ``refused``, ``out-of-class`` (verdicts), ``input-error`` (the loader or the checker
raises a :class:`~workbench.errors.WorkbenchError`: exit 2 at the command line). A pair is (strict,
observable); one string means both modes. Every ``certified`` case is also run through the small-width
oracle (every lane of every enumerated shape, wide against narrowed).

Grouped by the classes of issue 11 and by the classic attacks; each edit aims at one of the checker's own
assumptions, named in its comment.
"""

from __future__ import annotations

from adv_records import (BCAST, FLIP, MOVEDIM, NESTED, ROTARY, TILE, chain, field, guards, keep_hash, module,
                     rename_symbol, signature, size, src, symbol)

C, R, O, E = "certified", "refused", "out-of-class", "input-error"

TILE_LOAD = "tl.load(in_ptr0 + (ks1*x1 + ((x0 % ks1))), xmask, eviction_policy='evict_last')"
JIT = "@triton.jit\ndef "


def _extra_def(text: str):
    return module(JIT, text + "\n\n" + JIT)


SPECIFIC = [
    # -- 1. integer literals (Triton's to_tensor_type: 2**31..2**32-1 is uint32) ---------------------------
    ("lit/where-uint32-compared-with-index", TILE,
     src("xmask, eviction", "xmask & (x1 < tl.where(xmask, 3000000000, 0)), eviction"), O),
    ("lit/where-uint64", TILE, src("xmask, eviction", "xmask & (x1 < tl.where(xmask, 9223372036854775808, 0)), eviction"), O),
    ("lit/not-representable", TILE, src("x2 = xindex", "x2 = xindex + 18446744073709551616 * 0"), O),
    # absorbed by the int64 operand in the wide kernel, out of range for the int32 one once narrowed
    ("lit/fits-wide-not-narrow", TILE, src("(ks1*x1 + ((x0 % ks1)))", "(ks1*x1 + ((x0 % ks1)) + 3000000000 - 3000000000)"), R),
    ("lit/divisor-fits-wide-not-narrow", TILE, src("x1 = xindex // ks0", "x1 = (xindex // ks0) + (ks1 // 3000000000)"), R),
    # a literal an int32 index cannot absorb: Triton itself rejects the wide kernel
    ("lit/2**31-vs-int32-index", TILE, src("xmask = xindex < xnumel", "xmask = (xindex < xnumel) & (xindex < 2147483648)"), O),
    ("lit/uint32-store-value", TILE, src("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.store(out_ptr0 + (x2), 3000000000, xmask)"), O),
    # 2**32 is int64 on its own (signed): modelled, and harmless here
    ("lit/int64-literal-signed", TILE, src("x2 = xindex", "x2 = xindex + tl.where(xmask, 4294967296, 0) * 0"), C),
    # ... but a load whose mask it narrows, without other=, may feed an unspecified value to the store
    ("lit/int64-literal-masks-a-load", TILE, src("xmask, eviction", "xmask & (x1 < tl.where(xmask, 4294967296, 0)), eviction"), R),
    ("lit/bool-literal", TILE, src("xmask, eviction", "xmask & True, eviction"), C),
    # -- 2. launch indices: only the exact forms get the launch bound ------------------------------------
    ("launch/2*xindex-store", TILE, src("x2 = xindex", "x2 = 2*xindex"), R),
    ("launch/xindex+1000-range-mask", TILE, src("xmask = xindex < xnumel", "xmask = xindex + 1000 < xnumel"), R),
    ("launch/xindex+1000-divided", TILE, src("x1 = xindex // ks0", "x1 = (xindex + 1000) // ks0"), R),
    ("launch/offset-times-2", TILE, src("xoffset = tl.program_id(0) * XBLOCK", "xoffset = tl.program_id(0) * XBLOCK * 2"), R),
    ("launch/commuted-arange", TILE, src("xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xindex = tl.arange(0, XBLOCK)[:] + xoffset"), C),
    ("launch/commuted-offset", TILE, src("xoffset = tl.program_id(0) * XBLOCK", "xoffset = XBLOCK * tl.program_id(0)"), C),
    ("launch/index-plus-zero", TILE, src("xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xindex = xoffset + tl.arange(0, XBLOCK)[:] + 0"), R),
    ("launch/compared-with-size-arg", TILE, src("xmask = xindex < xnumel", "xmask = xindex < ks0"), R),
    ("launch/le-instead-of-lt", TILE, src("xmask = xindex < xnumel", "xmask = xindex <= xnumel"), R),
    ("launch/y-without-overflow-term", MOVEDIM,
     src("(tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK", "tl.program_id(1) * YBLOCK"), R),
    ("launch/y-compared-with-xnumel", MOVEDIM, src("ymask = yindex < ynumel", "ymask = yindex < xnumel"), R),
    # -- 3. side-condition identity: two lane classes that both render "xmask & t" ------------------------
    ("identity/same-text-different-classes", TILE,
     chain(src("    tmp0 = tl.load", "    t = x0 < 3\n    t = x1 < 3\n"
                                      "    tmp9 = tl.load(in_ptr0 + (x1*ks1*ks0), xmask & t)\n"
                                      "    tmp10 = tl.load(in_ptr0 + (x1*ks1*ks0), xmask & (x0 < 3))\n    tmp0 = tl.load"),
           src("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.store(out_ptr0 + (x2), tmp0 + tmp9 + tmp10, xmask)")), R),
    # -- 4. which function is the kernel ---------------------------------------------------------------
    ("function/duplicate-jit-def", TILE, _extra_def("@triton.jit\ndef triton_poi_fused_repeat_0(in_ptr0, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):\n    pass"), E),
    ("function/second-jit-function", TILE, _extra_def("@triton.jit\ndef helper(x):\n    return x"), E),
    # Inductor's scan kernels carry helper jit functions (``_triton_helper_fn_add0``): one beside the kernel, with
    # its own name, is not ambiguous; unused it changes nothing, called it makes the kernel out of class.
    ("function/unused-helper-after-kernel", TILE, module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\n\n@triton.jit\ndef _triton_helper_fn_add0(a, b):\n    return a + b\n"), C),
    ("function/kernel-calls-helper", TILE, chain(src("x2 = xindex", "x2 = _triton_helper_fn_add0(xindex, 0)"), module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\n\n@triton.jit\ndef _triton_helper_fn_add0(a, b):\n    return a + b\n")), O),
    ("function/helper-bound-twice", TILE, module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\n\n@triton.jit\ndef h(a):\n    return a\n\nh = None\n"), E),
    ("function/plain-def-rebinds-name", TILE, module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\n\ndef triton_poi_fused_repeat_0(*args):\n    pass\n"), E),
    ("function/assignment-rebinds-name", TILE, module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\n\ntriton_poi_fused_repeat_0 = None\n"), E),
    ("function/import-rebinds-name", TILE, module("    tl.store(out_ptr0 + (x2), tmp0, xmask)\n", "    tl.store(out_ptr0 + (x2), tmp0, xmask)\nfrom os import path as triton_poi_fused_repeat_0\n"), E),
    ("function/name-mismatch", TILE, module("def triton_poi_fused_repeat_0(", "def triton_poi_fused_repeat_1("), E),
    ("function/lambda-in-module", TILE, module("triton_helpers.set_driver_to_gpu()", "triton_helpers.set_driver_to_gpu()\nhelper = lambda x: x"), E),
    ("function/not-python", TILE, module("def triton_poi_fused_repeat_0(", "def triton_poi_fused_repeat_0(("), E),
    # -- 5. declared types: only exact i64 size arguments narrow ------------------------------------------
    ("types/size-i16", TILE, signature("ks1", "i16"), O),
    ("types/size-i8", TILE, signature("ks1", "i8"), O),
    ("types/size-i32", TILE, signature("ks0", "i32"), O),
    ("types/size-i1", TILE, signature("ks0", "i1"), O),
    ("types/size-u32", TILE, signature("ks0", "u32"), O),
    ("types/numel-i64", TILE, signature("xnumel", "i64"), O),
    ("types/numel-i16", TILE, signature("xnumel", "i16"), O),
    ("types/record-vs-triton-meta", TILE, signature("ks1", "i32", meta=False), E),
    ("types/size-arg-vs-signature", TILE, signature("ks1", "i32", meta=False, record=False), E),
    ("types/numel-vs-signature", TILE, size("xnumel", type_="i64"), E),
    ("types/not-a-triton-type", TILE, signature("ks1", "int64"), E),
    ("types/missing-size-arg", TILE, lambda d: {**d, "size_args": [a for a in d["size_args"] if a["name"] != "ks1"]}, E),
    ("types/signature-missing-parameter", TILE, lambda d: {**d, "signature": {k: v for k, v in d["signature"].items() if k != "ks1"}}, E),
    ("types/stale-source-hash", TILE, keep_hash(src("x2 = xindex", "x2 = xindex + 0")), E),
    ("types/empty-source-hash", TILE, keep_hash(field(source_hash="")), E),
    # -- 6. names: the auxiliary-atom namespace is the checker's -----------------------------------------
    ("names/symbol-_a0", TILE, rename_symbol("s77", "_a0"), E),
    ("names/symbol-underscore", TILE, rename_symbol("s27", "_s"), E),
    ("names/guard-mentions-_a1", TILE, guards(lambda g: g + ["_a1 <= 3"]), E),
    ("names/symbol-a0-is-fine", TILE, rename_symbol("s77", "a0"), C),
    ("names/symbol-aux_a0-is-fine", TILE, rename_symbol("s27", "aux0"), C),
    # -- 7. records are data: nothing in them is evaluated ------------------------------------------------
    ("data/guard-runs-a-command", TILE, guards(lambda g: g + ["__import__('os').system('touch PWNED')"]), E),
    ("data/size-dunder", TILE, size("ks1", "s27.__class__"), E),
    ("data/numel-lambda", TILE, size("xnumel", "(lambda: 1)()"), E),
    ("data/guard-string", TILE, guards(lambda g: g + ["'a' < 'b'"]), E),
    ("data/guard-huge-exponent", TILE, guards(lambda g: g + ["s27**100000 >= 0"]), E),
    ("data/guard-deep-nesting", TILE, guards(lambda g: g + ["(" * 400 + "s27" + ")" * 400 + " >= 1"]), E),
    ("data/guard-true-literal", TILE, guards(lambda g: g + ["True"]), E),
    ("data/guard-not-text", TILE, guards(lambda g: g + [5]), E),
    ("data/symbol-bound-not-int", TILE, symbol("s27", lower="2"), E),
    # -- 8. real expressions: a verdict, never a traceback ------------------------------------------------
    ("expr/size-min", TILE, size("ks1", "Min(s27, s77)"), C),
    ("expr/guard-max-rational", TILE, guards(lambda g: g + ["Max(s27/2, s77) <= 1000"]), C),
    ("expr/numel-guard-rational-strict", TILE, guards(lambda g: [x for x in g if x != "2*s27*s77 <= 2147483647"] + ["s27*s77/2 < 536870912"]), C),
    ("expr/guard-mod", TILE, guards(lambda g: g + ["Eq(Mod(s27, 2), 0)"]), C),
    ("expr/guard-ne", TILE, guards(lambda g: g + ["Ne(s27, 3)"]), C),
    ("expr/size-max", TILE, size("ks1", "Max(1, s27)"), C),
    ("expr/size-floor-div", TILE, size("ks1", "(s27 + 1)//2"), C),
    ("expr/numel-min-no-guard", TILE, chain(size("xnumel", "Min(2*s27*s77, 2147483647)"), guards(lambda g: [])), R),
    # -- classic attacks ---------------------------------------------------------------------------------
    ("classic/extra-size-product", TILE, src("tl.store(out_ptr0 + (x2)", "tl.store(out_ptr0 + (x2 + ks1*ks1*ks0)"), R),
    ("classic/unmasked-load", TILE, src("xmask, eviction", "eviction"), R),
    ("classic/unmasked-store", TILE, src("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.store(out_ptr0 + (x2), tmp0)"), R),
    ("classic/divisor-literal-zero", TILE, src("x1 = xindex // ks0", "x1 = xindex // (ks0 - ks0)"), R),
    ("classic/divisor-negative", TILE, src("x1 = xindex // ks0", "x1 = xindex // (0 - ks0)"), R),
    ("classic/reassigned-after-check", TILE, src("    tmp0 = tl.load", "    x1 = x1 * ks0 * ks1\n    tmp0 = tl.load"), O),
    # not used before, so rebinding is allowed; the new mask is no launch-range mask: tail lanes unprotected
    ("classic/reassigned-mask", FLIP, src("    tmp0 = tl.load", "    xmask = xindex < xnumel * ks0\n    tmp0 = tl.load"), R),
    ("classic/changed-cast", NESTED, src("tmp5 = (ks1 + ks2 + ks3).to(tl.int64)", "tmp5 = (ks1 * ks2 * ks3).to(tl.int32)"), R),
    ("classic/index-dtype-int64", TILE, field(index_dtype="tl.int64"), O),
    ("classic/index-dtype-int16", TILE, field(index_dtype="tl.int16"), O),
    ("classic/grid-3d", TILE, field(grid_type="Grid3D"), O),
    ("classic/program-id-1-in-1d", TILE, src("tl.program_id(0)", "tl.program_id(1)"), O),
    # an assert on a pure index term is compiled away and bounds nothing loaded: dropped (issue 13), the
    # kernel is the tile kernel (certified, and the small-width oracle agrees); on loaded data see
    # test_indirect_mutants.py
    ("classic/device-assert", TILE, src("    tmp0 = tl.load", "    tl.device_assert(x1 < ks0)\n    tmp0 = tl.load"), C),
    ("classic/atomic", TILE, src("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.atomic_add(out_ptr0 + (x2), tmp0, xmask)"), O),
    ("classic/indirect-load", TILE, src("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.store(out_ptr0 + (tmp0.to(tl.int32)), tmp0, xmask)"), O),
    ("classic/loop", TILE, src("    tmp0 = tl.load", "    for i in range(2):\n        pass\n    tmp0 = tl.load"), O),
    ("classic/module-rebound", TILE, src("    x2 = xindex", "    tl = triton\n    x2 = xindex"), O),
    ("classic/symbol-upper-bound-only", TILE, chain(guards(lambda g: []), symbol("s27", upper=10)), R),
    ("classic/index-dtype-plain-int32", TILE, field(index_dtype="int32"), C),
]

# Generic edits applied to each base kernel: (id, edit, expected given the base's own verdict).
GENERIC_BASES = {
    "tile": (TILE, C), "nested": (NESTED, C), "rotary": (ROTARY, (R, C)), "flip": (FLIP, C), "bcast": (BCAST, C),
    "movedim": (MOVEDIM, C),
}


def _lower_all(value):
    def edit(d):
        for s in d["symbols"]:
            s["lower"] = value
        return d
    return edit


def _first_size_arg(type_):
    def edit(d):
        name = d["size_args"][0]["name"]
        return signature(name, type_)(d)
    return edit


def _meta_disagrees(d):
    name = d["size_args"][0]["name"]
    return signature(name, "i32", meta=False)(d)


def _first_symbol_aux(d):
    return rename_symbol(d["symbols"][0]["name"], "_a0")(d)


GENERIC = [
    ("unchanged", lambda d: d, None),
    ("all-guards-dropped", guards(lambda g: []), R),
    ("lower-bounds-0", _lower_all(0), R),
    ("lower-bounds-absent", _lower_all(None), R),
    ("index-dtype-int64", field(index_dtype="tl.int64"), O),
    ("size-arg-i32", _first_size_arg("i32"), O),
    ("triton-meta-disagrees", _meta_disagrees, E),
    ("stale-hash", keep_hash(src("xoffset = tl.program_id(0) * XBLOCK", "xoffset = tl.program_id(0) * XBLOCK ")), E),
    ("symbol-_a0", _first_symbol_aux, E),
    ("guard-code", guards(lambda g: g + ["__import__('os').getcwd() > 0"]), E),
]


def cases():
    out = [(cid, rel, edit, expected) for cid, rel, edit, expected in SPECIFIC]
    for bname, (rel, own) in GENERIC_BASES.items():
        for gid, edit, expected in GENERIC:
            out.append((f"{bname}/{gid}", rel, edit, own if expected is None else expected))
    return out

CASES_MIN = 80
