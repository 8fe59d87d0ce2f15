import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__safe_softmax_add_arange_bitwise_and_eq_expand_index_le_new_ones_prepare_softmax_online_scalar_tensor_unsqueeze_view_where_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 312, 'r0_': 24648}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__safe_softmax_add_arange_bitwise_and_eq_expand_index_le_new_ones_prepare_softmax_online_scalar_tensor_unsqueeze_view_where_6(in_out_ptr0, in_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % ks0)
    x2 = xindex // ks1
    tmp8 = tl.load(in_ptr0 + (x0 + ks0*x2), xmask, eviction_policy='evict_last')
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp25 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp9 = tl.load(in_ptr0 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = (r0_3).to(tl.int64)
        tmp2 = (tmp1).to(tl.int64)
        tmp3 = (x0).to(tl.int64)
        tmp4 = (tmp3).to(tl.int64)
        tmp5 = tmp2 <= tmp4
        tmp6 = tl.full([1, 1], True, tl.int1)
        tmp7 = tmp6 & tmp5
        tmp10 = tmp8 == tmp9
        tmp11 = tmp7 & tmp10
        tmp12 = tl.full([1, 1], 0.0, tl.float32)
        tmp13 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp14 = tl.where(tmp11, tmp12, tmp13)
        tmp15 = tmp0 + tmp14
        tmp16 = tmp15 == tmp13
        tmp17 = tmp16 == 0
        tmp18 = tmp17.to(tl.int64)
        tmp19 = (tmp18 != 0)
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 | tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
        tmp24 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
        tmp26 = triton_helpers.maximum(_tmp25, tmp24)
        _tmp25 = tl.where(r0_mask & xmask, tmp26, _tmp25)
    tmp23 = _tmp21.to(tl.int8)
    tmp21 = triton_helpers.any(tmp23, 1)[:, None]
    tmp25 = triton_helpers.max2(_tmp25, 1)[:, None]
    _tmp45 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp27 = tl.load(in_out_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp35 = tl.load(in_ptr0 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp28 = (r0_3).to(tl.int64)
        tmp29 = (tmp28).to(tl.int64)
        tmp30 = (x0).to(tl.int64)
        tmp31 = (tmp30).to(tl.int64)
        tmp32 = tmp29 <= tmp31
        tmp33 = tl.full([1, 1], True, tl.int1)
        tmp34 = tmp33 & tmp32
        tmp36 = tmp8 == tmp35
        tmp37 = tmp34 & tmp36
        tmp38 = tl.full([1, 1], 0.0, tl.float32)
        tmp39 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp40 = tl.where(tmp37, tmp38, tmp39)
        tmp41 = tmp27 + tmp40
        tmp42 = tmp41 - tmp25
        tmp43 = libdevice.exp(tmp42)
        tmp44 = tl.broadcast_to(tmp43, [XBLOCK, R0_BLOCK])
        tmp46 = _tmp45 + tmp44
        _tmp45 = tl.where(r0_mask & xmask, tmp46, _tmp45)
    tmp45 = tl.sum(_tmp45, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp48 = tl.load(in_out_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp56 = tl.load(in_ptr0 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp47 = tmp21 == 0
        tmp49 = (r0_3).to(tl.int64)
        tmp50 = (tmp49).to(tl.int64)
        tmp51 = (x0).to(tl.int64)
        tmp52 = (tmp51).to(tl.int64)
        tmp53 = tmp50 <= tmp52
        tmp54 = tl.full([1, 1], True, tl.int1)
        tmp55 = tmp54 & tmp53
        tmp57 = tmp8 == tmp56
        tmp58 = tmp55 & tmp57
        tmp59 = tl.full([1, 1], 0.0, tl.float32)
        tmp60 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp61 = tl.where(tmp58, tmp59, tmp60)
        tmp62 = tmp48 + tmp61
        tmp63 = tmp62 - tmp25
        tmp64 = libdevice.exp(tmp63)
        tmp65 = (tmp64 / tmp45)
        tmp66 = tl.where(tmp47, tmp59, tmp65)
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp66, r0_mask & xmask)
