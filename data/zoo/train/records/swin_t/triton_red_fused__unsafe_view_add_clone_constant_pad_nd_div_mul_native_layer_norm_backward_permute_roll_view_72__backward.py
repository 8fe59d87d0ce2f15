import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 512, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_add_clone_constant_pad_nd_div_mul_native_layer_norm_backward_permute_roll_view_72', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 11, 'num_store': 2, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 1248, 'r0_': 1327872}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_add_clone_constant_pad_nd_div_mul_native_layer_norm_backward_permute_roll_view_72(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = ((xindex // 12) % 8)
    x0 = (xindex % 12)
    x2 = xindex // 96
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x5 = xindex
    _tmp26 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp18 = tl.load(in_ptr2 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp23 = tl.load(in_ptr3 + (r0_3 + 192*x5), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp0 = (x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 14, tl.int64)
        tmp2 = tmp0 < tmp1
        tmp3 = (x0).to(tl.int32)
        tmp4 = tmp3 < tmp1
        tmp5 = tmp2 & tmp4
        tmp6 = tl.load(in_ptr0 + (tl.broadcast_to(x1, [XBLOCK, R0_BLOCK])), r0_mask & tmp5 & xmask, eviction_policy='evict_last', other=0.0)
        tmp7 = (tl.full([1, 1], 14, tl.int32)).to(tl.int32)
        tmp8 = tmp6 + tmp7
        tmp9 = tmp6 < 0
        tmp10 = tl.where(tmp9, tmp8, tmp6)
        tl.device_assert(((0 <= tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK]) < 14)) | ~(r0_mask & tmp5 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK]) < 14")
        tmp12 = tl.load(in_ptr0 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp5 & xmask, eviction_policy='evict_last', other=0.0)
        tmp13 = tmp12 + tmp7
        tmp14 = tmp12 < 0
        tmp15 = tl.where(tmp14, tmp13, tmp12)
        tl.device_assert(((0 <= tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK]) < 14)) | ~(r0_mask & tmp5 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK]) < 14")
        tmp17 = tl.load(in_ptr1 + (r0_3 + 192*((tmp15 % 7)) + 1344*((tmp10 % 7)) + 9408*(((tmp15 // 7) % 2)) + 18816*(((tmp10 // 7) % 2)) + 37632*x2), r0_mask & tmp5 & xmask, eviction_policy='evict_last', other=0.0)
        tmp19 = tmp17 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
        tmp24 = tmp19 * tmp23
        tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
        tmp27 = _tmp26 + tmp25
        _tmp26 = tl.where(r0_mask & xmask, tmp27, _tmp26)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    tmp26 = tl.sum(_tmp26, 1)[:, None]
    tmp29 = tl.load(in_ptr4 + (x5), xmask, eviction_policy='evict_last')
    tmp58 = tl.load(in_ptr5 + (x2), xmask, eviction_policy='evict_last')
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp28 = tl.load(in_out_ptr0 + (r0_3 + 192*x5), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp48 = tl.load(in_ptr2 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp53 = tl.load(in_ptr3 + (r0_3 + 192*x5), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp30 = (x1).to(tl.int32)
        tmp31 = tl.full([1, 1], 14, tl.int64)
        tmp32 = tmp30 < tmp31
        tmp33 = (x0).to(tl.int32)
        tmp34 = tmp33 < tmp31
        tmp35 = tmp32 & tmp34
        tmp36 = tl.load(in_ptr0 + (tl.broadcast_to(x1, [XBLOCK, R0_BLOCK])), r0_mask & tmp35 & xmask, eviction_policy='evict_last', other=0.0)
        tmp37 = (tl.full([1, 1], 14, tl.int32)).to(tl.int32)
        tmp38 = tmp36 + tmp37
        tmp39 = tmp36 < 0
        tmp40 = tl.where(tmp39, tmp38, tmp36)
        tl.device_assert(((0 <= tl.broadcast_to(tmp40, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp40, [XBLOCK, R0_BLOCK]) < 14)) | ~(r0_mask & tmp35 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp40, [XBLOCK, R0_BLOCK]) < 14")
        tmp42 = tl.load(in_ptr0 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp35 & xmask, eviction_policy='evict_last', other=0.0)
        tmp43 = tmp42 + tmp37
        tmp44 = tmp42 < 0
        tmp45 = tl.where(tmp44, tmp43, tmp42)
        tl.device_assert(((0 <= tl.broadcast_to(tmp45, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp45, [XBLOCK, R0_BLOCK]) < 14)) | ~(r0_mask & tmp35 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp45, [XBLOCK, R0_BLOCK]) < 14")
        tmp47 = tl.load(in_ptr1 + (r0_3 + 192*((tmp45 % 7)) + 1344*((tmp40 % 7)) + 9408*(((tmp45 // 7) % 2)) + 18816*(((tmp40 // 7) % 2)) + 37632*x2), r0_mask & tmp35 & xmask, eviction_policy='evict_first', other=0.0)
        tmp49 = tmp47 * tmp48
        tmp50 = tl.full([1, 1], 192.0, tl.float32)
        tmp51 = tmp49 * tmp50
        tmp52 = tmp51 - tmp21
        tmp54 = tmp53 * tmp26
        tmp55 = tmp52 - tmp54
        tmp56 = tmp29 * tmp55
        tmp57 = tmp28 + tmp56
        tmp59 = tl.full([1, 1], 0.9636363636363636, tl.float32)
        tmp60 = (tmp58 / tmp59)
        tmp61 = tmp57 * tmp60
        tl.store(in_out_ptr0 + (r0_3 + 192*x5), tmp57, r0_mask & xmask)
        tl.store(out_ptr2 + (r0_3 + 192*x5), tmp61, r0_mask & xmask)
