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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__safe_softmax__to_copy_abs_add_arange_clone_div_embedding_full_like_gt_log_lt_minimum_mul_permute_prepare_softmax_online_sub_unsqueeze_view_where_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 24336}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__safe_softmax__to_copy_abs_add_arange_clone_div_embedding_full_like_gt_log_lt_minimum_mul_permute_prepare_softmax_online_sub_unsqueeze_view_where_3(in_out_ptr0, in_ptr0, in_ptr1, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % ks0)
    x1 = ((xindex // ks0) % 4)
    _tmp29 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = (r0_3 + ((-1)*x0)).to(tl.int32)
        tmp2 = tl.full([1, 1], 0, tl.int64)
        tmp3 = tmp1 > tmp2
        tmp4 = tmp3.to(tl.int64)
        tmp5 = tl.full([1, 1], 16, tl.int64)
        tmp6 = tmp4 * tmp5
        tmp7 = tmp6 + tmp2
        tmp8 = (tl_math.abs(r0_3 + ((-1)*x0))).to(tl.int32)
        tmp9 = tl.full([1, 1], 8, tl.int64)
        tmp10 = tmp8 < tmp9
        tmp11 = (tl_math.abs(r0_3 + ((-1)*x0))).to(tl.float32)
        tmp12 = tl.full([1, 1], 0.125, tl.float32)
        tmp13 = tmp11 * tmp12
        tmp14 = tl_math.log(tmp13)
        tmp15 = tl.full([1, 1], 0.36067376022224085, tl.float32)
        tmp16 = tmp14 * tmp15
        tmp17 = tl.full([1, 1], 8.0, tl.float32)
        tmp18 = tmp16 * tmp17
        tmp19 = tmp18.to(tl.int64)
        tmp20 = tmp19 + tmp9
        tmp21 = tl.full([1, 1], 15, tl.int64)
        tmp22 = triton_helpers.minimum(tmp20, tmp21)
        tmp23 = tl.where(tmp10, tmp8, tmp22)
        tmp24 = tmp7 + tmp23
        tl.device_assert(((0 <= tmp24) & (tmp24 < 32)) | ~(r0_mask & xmask), "index out of bounds: 0 <= tmp24 < 32")
        tmp26 = tl.load(in_ptr1 + (x1 + 4*tmp24), r0_mask & xmask, eviction_policy='evict_last')
        tmp27 = tmp0 + tmp26
        tmp28 = tl.broadcast_to(tmp27, [XBLOCK, R0_BLOCK])
        tmp30 = triton_helpers.maximum(_tmp29, tmp28)
        _tmp29 = tl.where(r0_mask & xmask, tmp30, _tmp29)
    tmp29 = triton_helpers.max2(_tmp29, 1)[:, None]
    _tmp62 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp70 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp31 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp32 = (r0_3 + ((-1)*x0)).to(tl.int32)
        tmp33 = tl.full([1, 1], 0, tl.int64)
        tmp34 = tmp32 > tmp33
        tmp35 = tmp34.to(tl.int64)
        tmp36 = tl.full([1, 1], 16, tl.int64)
        tmp37 = tmp35 * tmp36
        tmp38 = tmp37 + tmp33
        tmp39 = (tl_math.abs(r0_3 + ((-1)*x0))).to(tl.int32)
        tmp40 = tl.full([1, 1], 8, tl.int64)
        tmp41 = tmp39 < tmp40
        tmp42 = (tl_math.abs(r0_3 + ((-1)*x0))).to(tl.float32)
        tmp43 = tl.full([1, 1], 0.125, tl.float32)
        tmp44 = tmp42 * tmp43
        tmp45 = tl_math.log(tmp44)
        tmp46 = tl.full([1, 1], 0.36067376022224085, tl.float32)
        tmp47 = tmp45 * tmp46
        tmp48 = tl.full([1, 1], 8.0, tl.float32)
        tmp49 = tmp47 * tmp48
        tmp50 = tmp49.to(tl.int64)
        tmp51 = tmp50 + tmp40
        tmp52 = tl.full([1, 1], 15, tl.int64)
        tmp53 = triton_helpers.minimum(tmp51, tmp52)
        tmp54 = tl.where(tmp41, tmp39, tmp53)
        tmp55 = tmp38 + tmp54
        tl.device_assert(((0 <= tmp55) & (tmp55 < 32)) | ~(r0_mask & xmask), "index out of bounds: 0 <= tmp55 < 32")
        tmp57 = tl.load(in_ptr1 + (x1 + 4*tmp55), r0_mask & xmask, eviction_policy='evict_last')
        tmp58 = tmp31 + tmp57
        tmp59 = tmp58 - tmp29
        tmp60 = libdevice.exp(tmp59)
        tmp61 = tl.broadcast_to(tmp60, [XBLOCK, R0_BLOCK])
        tmp63 = _tmp62 + tmp61
        _tmp62 = tl.where(r0_mask & xmask, tmp63, _tmp62)
        tmp64 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp65 = tmp58 == tmp64
        tmp66 = tmp65 == 0
        tmp67 = tmp66.to(tl.int64)
        tmp68 = (tmp67 != 0)
        tmp69 = tl.broadcast_to(tmp68, [XBLOCK, R0_BLOCK])
        tmp71 = _tmp70 | tmp69
        _tmp70 = tl.where(r0_mask & xmask, tmp71, _tmp70)
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp59, r0_mask & xmask)
    tmp62 = tl.sum(_tmp62, 1)[:, None]
    tmp72 = _tmp70.to(tl.int8)
    tmp70 = triton_helpers.any(tmp72, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp74 = tl.load(in_out_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp73 = tmp70 == 0
        tmp75 = libdevice.exp(tmp74)
        tmp76 = (tmp75 / tmp62)
        tmp77 = tl.full([1, 1], 0.0, tl.float32)
        tmp78 = tl.where(tmp73, tmp77, tmp76)
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp78, r0_mask & xmask)
