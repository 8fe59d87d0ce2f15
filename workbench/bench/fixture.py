"""A hand-written stand-in for Inductor's fused ``nested_cat_add`` kernel, for tests and for dry runs on a
machine where capture is unavailable.

It is written in the form Inductor emits (one masked-load pointwise kernel, ``ks0`` = total width,
``ks1..ks3`` = the q, k, v widths shared by both halves, ``xnumel`` = rows * ks0, size arguments ``i64``,
``xnumel`` ``i32``; NOTES, "Observed for nested_cat_add"), but it was *not* emitted by Inductor: a record made
with it says so (``kernel.origin = "fixture"``) and nothing timed with it is a claim about Inductor's code.
"""

from __future__ import annotations

from workbench.capture.record import CapturedKernel, Numel, ShapeSymbol, SizeArg

NAME = "triton_poi_fused_cat_0"

SOURCE = '''\
@triton.jit
def triton_poi_fused_cat_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr0, ks0, ks1, ks2, ks3, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % ks0)
    x1 = xindex // ks0
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = ks1 + ks2 + ks3
    tmp4 = tmp0 < tmp3
    tmp5 = tmp0 < ks1
    tmp6 = tmp4 & tmp5
    tmp7 = tl.load(in_ptr0 + (ks1*x1 + (x0)), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp8 = tmp0 >= ks1
    tmp9 = tmp0 < ks1 + ks2
    tmp10 = tmp8 & tmp9 & tmp4
    tmp11 = tl.load(in_ptr1 + (ks2*x1 + ((-1)*ks1 + (x0))), tmp10 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp12 = tmp0 >= ks1 + ks2
    tmp13 = tmp12 & tmp4
    tmp14 = tl.load(in_ptr2 + (ks3*x1 + ((-1)*ks1 + (-1)*ks2 + (x0))), tmp13 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp15 = tl.load(in_ptr3 + (ks3*x1 + ((-1)*ks1 + (-1)*ks2 + (x0))), tmp13 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = tl.where(tmp13, tmp16, 0.0)
    tmp18 = tl.where(tmp10, tmp11, tmp17)
    tmp19 = tl.where(tmp6, tmp7, tmp18)
    tmp20 = tmp0 >= tmp3
    tmp21 = x0 + ((-1)*ks1 + (-1)*ks2 + (-1)*ks3)
    tmp22 = tmp21 < ks1
    tmp23 = tmp20 & tmp22
    tmp24 = tl.load(in_ptr4 + (ks1*x1 + ((-1)*ks1 + (-1)*ks2 + (-1)*ks3 + (x0))), tmp23 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp25 = tmp21 >= ks1
    tmp26 = tmp21 < ks1 + ks2
    tmp27 = tmp20 & tmp25 & tmp26
    tmp28 = tl.load(in_ptr5 + (ks2*x1 + ((-2)*ks1 + (-1)*ks2 + (-1)*ks3 + (x0))), tmp27 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp29 = tmp21 >= ks1 + ks2
    tmp30 = tmp20 & tmp29
    tmp31 = tl.load(in_ptr6 + (ks3*x1 + ((-2)*ks1 + (-2)*ks2 + (-1)*ks3 + (x0))), tmp30 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp32 = tl.load(in_ptr7 + (ks3*x1 + ((-2)*ks1 + (-2)*ks2 + (-1)*ks3 + (x0))), tmp30 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp33 = tmp31 + tmp32
    tmp34 = tl.where(tmp30, tmp33, 0.0)
    tmp35 = tl.where(tmp27, tmp28, tmp34)
    tmp36 = tl.where(tmp23, tmp24, tmp35)
    tmp37 = tl.where(tmp4, tmp19, tmp36)
    tl.store(out_ptr0 + (x2), tmp37, xmask)
'''

SIGNATURE = {
    **{f"in_ptr{i}": "*bf16" for i in range(8)},
    "out_ptr0": "*bf16",
    "ks0": "i64",
    "ks1": "i64",
    "ks2": "i64",
    "ks3": "i64",
    "xnumel": "i32",
    "XBLOCK": "constexpr",
}


def kernel() -> CapturedKernel:
    """The stand-in as a :class:`CapturedKernel` for program ``nested_cat_add`` (symbols s0 = rows,
    s1..s3 = q, k, v widths)."""
    from workbench.capture.record import source_hash

    return CapturedKernel(
        program="nested_cat_add",
        name=NAME,
        source=SOURCE,
        signature=dict(SIGNATURE),
        grid_type="Grid1D",
        index_dtype="tl.int32",
        size_args=(
            SizeArg("ks0", "2*s1 + 2*s2 + 2*s3", "i64"),
            SizeArg("ks1", "s1", "i64"),
            SizeArg("ks2", "s2", "i64"),
            SizeArg("ks3", "s3", "i64"),
        ),
        numels=(Numel("xnumel", "2*s0*(s1 + s2 + s3)", "i32"),),
        symbols=(
            ShapeSymbol("s0", 2, None, ("q1.size(0) (input 0)",)),
            ShapeSymbol("s1", 2, None, ("q1.size(1) (input 0)", "q2.size(1) (input 4)")),
            ShapeSymbol("s2", 2, None, ("k1.size(1) (input 1)", "k2.size(1) (input 5)")),
            ShapeSymbol("s3", 2, None, ("v1a.size(1) (input 2)",)),
        ),
        guards=("2*s0*(s1 + s2 + s3) <= 2147483647",),
        replacements={},
        device="fixture",
        torch_version="n/a",
        triton_version="n/a",
        source_hash=source_hash(SOURCE, NAME),
    )


def synthetic_record(plan_path: str, effect: float = 1.08, noise: float = 0.01, seed: int = 0,
                     shape_effects: dict[str, float] | None = None) -> dict:
    """A *synthetic* GPU-mode record for a plan, for tests and demos of the statistics, report and widget.

    Every block's times are drawn from a lognormal model in which the plan's decision ``narrow`` variant is
    ``effect`` times faster than every other variant (per shape: ``shape_effects[key]`` when given). The
    environment says ``device = "synthetic (not measured)"``: such a record is never evidence about a GPU.
    """
    import numpy as np

    from workbench.bench import plan as plan_mod
    from workbench.bench import records
    from workbench.bench.plan import shape_key

    plan, raw = plan_mod.load(plan_path)
    st = plan.gpu
    rng = np.random.default_rng(seed)
    narrow = plan.decision.narrow
    base = {shape_key(sh): 0.01 * float(np.prod([v for _, v in sh])) ** 0.5 for sh in st.sequence + st.small}

    def t(variant: str, key: str) -> float:
        e = (shape_effects or {}).get(key, effect) if variant == narrow else 1.0
        return float(base[key] / e * np.exp(rng.normal(0.0, noise)))

    parts = []
    clock = 1_000_000.0
    for p, rounds in enumerate(plan_mod.schedule(plan, dry_run=False)):
        blocks = []
        for r, order in enumerate(rounds):
            for pos, n in enumerate(order):
                seq = {shape_key(sh): [t(n, shape_key(sh)) for _ in range(st.calls_sequence)] for sh in st.sequence}
                small = {shape_key(sh): [t(n, shape_key(sh)) for _ in range(st.calls_small)] for sh in st.small}
                total = sum(sum(v) for v in seq.values())
                blocks.append({"process": p, "round": r, "order": list(order), "position": pos, "variant": n,
                               "t_start": clock, "t_end": clock + 1.0, "warmup_s": st.warmup_s, "warmup_passes": 1,
                               "sequence_ms": total, "sequence_calls_ms": seq, "small_calls_ms": small,
                               "compiled_during_block": False, "outputs_bitwise_equal": True})
                clock += 1.0 + st.warmup_s
        parts.append({
            "process": p,
            "environment": {"device": "synthetic (not measured)", "driver": None, "torch": "n/a", "triton": "n/a"},
            "kernel": {"name": NAME, "program": plan.program, "origin": "synthetic", "source_hash": None,
                       "signature": dict(SIGNATURE)},
            "variants": {n: {"fn_name": f"{NAME}_{n}", "digest": "synthetic", "scalar_types": {}, "description": ""}
                         for n in plan.variants},
            "correctness": [{"process": p, "variant": n, "shape": shape_key(sh), "bitwise_equal": True}
                            for n in plan.variants for sh in st.sequence + st.small],
            "blocks": blocks,
            "telemetry": {"available": False, "reason": "synthetic record", "interval_s": plan.telemetry_interval_s,
                          "samples": []},
        })
    rec = records.assemble(plan, raw, plan_path, parts, False, 0.0, 1.0)
    rec["synthetic"] = True
    rec["note"] = "SYNTHETIC record for tests and demos: generated numbers, not measurements."
    return rec
