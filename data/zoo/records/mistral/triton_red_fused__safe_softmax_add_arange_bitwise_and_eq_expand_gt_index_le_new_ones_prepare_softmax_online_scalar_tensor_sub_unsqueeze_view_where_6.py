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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__safe_softmax_add_arange_bitwise_and_eq_expand_gt_index_le_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 312, 'r0_': 24648}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__safe_softmax_add_arange_bitwise_and_eq_expand_gt_index_le_new_ones_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_6(in_out_ptr0, in_ptr0, in_ptr1, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    tmp13 = tl.load(in_ptr1 + (x0 + ks0*x2), xmask, eviction_policy='evict_last')
    _tmp26 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp30 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp14 = tl.load(in_ptr1 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = (r0_3).to(tl.int64)
        tmp2 = (tmp1).to(tl.int64)
        tmp3 = ((-8) + x0).to(tl.int64)
        tmp4 = (tmp3).to(tl.int64)
        tmp5 = tmp2 > tmp4
        tmp6 = tl.full([1, 1], True, tl.int1)
        tmp7 = tmp6 & tmp5
        tmp8 = (x0).to(tl.int64)
        tmp9 = (tmp8).to(tl.int64)
        tmp10 = tmp2 <= tmp9
        tmp11 = tmp7 & tmp10
        tmp12 = tmp6 & tmp11
        tmp15 = tmp13 == tmp14
        tmp16 = tmp12 & tmp15
        tmp17 = tl.full([1, 1], 0.0, tl.float32)
        tmp18 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp19 = tl.where(tmp16, tmp17, tmp18)
        tmp20 = tmp0 + tmp19
        tmp21 = tmp20 == tmp18
        tmp22 = tmp21 == 0
        tmp23 = tmp22.to(tl.int64)
        tmp24 = (tmp23 != 0)
        tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
        tmp27 = _tmp26 | tmp25
        _tmp26 = tl.where(r0_mask & xmask, tmp27, _tmp26)
        tmp29 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
        tmp31 = triton_helpers.maximum(_tmp30, tmp29)
        _tmp30 = tl.where(r0_mask & xmask, tmp31, _tmp30)
    tmp28 = _tmp26.to(tl.int8)
    tmp26 = triton_helpers.any(tmp28, 1)[:, None]
    tmp30 = triton_helpers.max2(_tmp30, 1)[:, None]
    _tmp55 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp32 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp45 = tl.load(in_ptr1 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp33 = (r0_3).to(tl.int64)
        tmp34 = (tmp33).to(tl.int64)
        tmp35 = ((-8) + x0).to(tl.int64)
        tmp36 = (tmp35).to(tl.int64)
        tmp37 = tmp34 > tmp36
        tmp38 = tl.full([1, 1], True, tl.int1)
        tmp39 = tmp38 & tmp37
        tmp40 = (x0).to(tl.int64)
        tmp41 = (tmp40).to(tl.int64)
        tmp42 = tmp34 <= tmp41
        tmp43 = tmp39 & tmp42
        tmp44 = tmp38 & tmp43
        tmp46 = tmp13 == tmp45
        tmp47 = tmp44 & tmp46
        tmp48 = tl.full([1, 1], 0.0, tl.float32)
        tmp49 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp50 = tl.where(tmp47, tmp48, tmp49)
        tmp51 = tmp32 + tmp50
        tmp52 = tmp51 - tmp30
        tmp53 = libdevice.exp(tmp52)
        tmp54 = tl.broadcast_to(tmp53, [XBLOCK, R0_BLOCK])
        tmp56 = _tmp55 + tmp54
        _tmp55 = tl.where(r0_mask & xmask, tmp56, _tmp55)
    tmp55 = tl.sum(_tmp55, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp57 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp70 = tl.load(in_ptr1 + (r0_3 + ks0*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp58 = (r0_3).to(tl.int64)
        tmp59 = (tmp58).to(tl.int64)
        tmp60 = ((-8) + x0).to(tl.int64)
        tmp61 = (tmp60).to(tl.int64)
        tmp62 = tmp59 > tmp61
        tmp63 = tl.full([1, 1], True, tl.int1)
        tmp64 = tmp63 & tmp62
        tmp65 = (x0).to(tl.int64)
        tmp66 = (tmp65).to(tl.int64)
        tmp67 = tmp59 <= tmp66
        tmp68 = tmp64 & tmp67
        tmp69 = tmp63 & tmp68
        tmp71 = tmp13 == tmp70
        tmp72 = tmp69 & tmp71
        tmp73 = tl.full([1, 1], 0.0, tl.float32)
        tmp74 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp75 = tl.where(tmp72, tmp73, tmp74)
        tmp76 = tmp57 + tmp75
        tmp77 = tmp76 - tmp30
        tmp78 = libdevice.exp(tmp77)
        tmp79 = (tmp78 / tmp55)
        tmp80 = tmp26 == 0
        tmp81 = tl.where(tmp80, tmp73, tmp79)
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp81, r0_mask & xmask)
