import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'y': 64, 'x': 16, 'r0_': 4},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*i1', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*i1', 'in_ptr8': '*i64', 'out_ptr2': '*fp32', 'ks0': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'r0_numel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'kernel_name': 'triton_red_fused__softmax_backward_data_add_embedding_dense_backward_native_dropout_backward_permute_squeeze_sum_view_12', 'mutated_arg_names': ['out_ptr2'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': True, 'num_load': 9, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'y': 1248, 'x': 37856, 'r0_': 0}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__softmax_backward_data_add_embedding_dense_backward_native_dropout_backward_permute_squeeze_sum_view_12(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr2, ks0, ynumel, xnumel, r0_numel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, None, :]
    rbase = r0_base
    x1 = xindex
    y0 = yindex
    _tmp12 = tl.full([YBLOCK, XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0)
        tmp2 = tl.load(in_ptr1 + (y0 + 4*ks0*r0_2), r0_mask & ymask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.load(in_ptr2 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0)
        tmp4 = tl.load(in_ptr3 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp1 = -tmp0
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tl.full([1, 1, 1], 1.1111111111111112, tl.float32)
        tmp7 = tmp5 * tmp6
        tmp8 = tmp3 * tmp7
        tmp9 = tmp8 * tmp0
        tmp10 = tl.fma(tmp1, tmp2, tmp9)
        tmp11 = tl.broadcast_to(tmp10, [YBLOCK, XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 + tmp11
        _tmp12 = tl.where(r0_mask & xmask & ymask, tmp13, _tmp12)
    tmp12 = tl.sum(_tmp12, 2)[:, :, None]
    _tmp26 = tl.full([YBLOCK, XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp14 = tl.load(in_ptr4 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0)
        tmp16 = tl.load(in_ptr5 + (y0 + 4*ks0*r0_2), r0_mask & ymask, eviction_policy='evict_last', other=0.0)
        tmp17 = tl.load(in_ptr6 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0)
        tmp18 = tl.load(in_ptr7 + (x1 + ks0*y0 + 4*r0_2*ks0*ks0), r0_mask & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp15 = -tmp14
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1, 1], 1.1111111111111112, tl.float32)
        tmp21 = tmp19 * tmp20
        tmp22 = tmp17 * tmp21
        tmp23 = tmp22 * tmp14
        tmp24 = tl.fma(tmp15, tmp16, tmp23)
        tmp25 = tl.broadcast_to(tmp24, [YBLOCK, XBLOCK, R0_BLOCK])
        tmp27 = _tmp26 + tmp25
        _tmp26 = tl.where(r0_mask & xmask & ymask, tmp27, _tmp26)
    tmp26 = tl.sum(_tmp26, 2)[:, :, None]
    y3 = (yindex % ks0)
    y4 = yindex // ks0
    tmp28 = tl.load(in_ptr8 + (x1 + y3*((ks0*ks0) // ks0)), xmask & ymask, eviction_policy='evict_last')
    tmp29 = tl.full([1, 1, 1], 31, tl.int64)
    tmp30 = triton_helpers.minimum(tmp29, tmp28)
    tmp31 = tl.full([1, 1, 1], -32, tl.int64)
    tmp32 = triton_helpers.maximum(tmp31, tmp30)
    tmp33 = (tl.full([1, 1, 1], 32, tl.int32)).to(tl.int32)
    tmp34 = tmp32 + tmp33
    tmp35 = tmp32 < 0
    tmp36 = tl.where(tmp35, tmp34, tmp32)
    tmp37 = tl.full([1, 1, 1], 0, tl.int64)
    tmp38 = tmp28 >= tmp37
    tmp39 = tl.full([1, 1, 1], 32, tl.int64)
    tmp40 = tmp28 < tmp39
    tmp41 = tmp38 & tmp40
    tmp42 = tl.full([1, 1, 1], -1, tl.int64)
    tmp43 = tmp28 != tmp42
    tmp44 = tmp41 & tmp43
    tmp45 = tmp12 + tmp26
    tmp46 = tl.full([1, 1, 1], 0.0, tl.float32)
    tmp47 = tl.where(tmp44, tmp45, tmp46)
    tl.atomic_add(out_ptr2 + (tl.broadcast_to(y4 + 4*tmp36, [YBLOCK, XBLOCK, 1])), tmp47, xmask & ymask, sem='relaxed')
