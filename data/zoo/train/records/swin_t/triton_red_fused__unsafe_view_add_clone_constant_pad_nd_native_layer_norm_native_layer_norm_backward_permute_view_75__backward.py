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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_add_clone_constant_pad_nd_native_layer_norm_native_layer_norm_backward_permute_view_75', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 2304, 'r0_': 1106688}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_add_clone_constant_pad_nd_native_layer_norm_native_layer_norm_backward_permute_view_75(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x4 = xindex
    tmp13 = tl.load(in_ptr3 + (x4), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr4 + (x4), xmask, eviction_policy='evict_last')
    _tmp19 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp7 = tl.load(in_ptr1 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp12 = tl.load(in_ptr2 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp0 = (x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 14, tl.int64)
        tmp2 = tmp0 < tmp1
        tmp3 = (x0).to(tl.int32)
        tmp4 = tmp3 < tmp1
        tmp5 = tmp2 & tmp4
        tmp6 = tl.load(in_ptr0 + (r0_3 + 192*((x0 % 7)) + 1344*((x1 % 7)) + 9408*(x0 // 7) + 18816*(x1 // 7) + 37632*x2), r0_mask & tmp5 & xmask, eviction_policy='evict_last', other=0.0)
        tmp8 = tmp6 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
        tmp14 = tmp12 - tmp13
        tmp16 = tmp14 * tmp15
        tmp17 = tmp8 * tmp16
        tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
        tmp20 = _tmp19 + tmp18
        _tmp19 = tl.where(r0_mask & xmask, tmp20, _tmp19)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    tmp19 = tl.sum(_tmp19, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp21 = tl.load(in_out_ptr0 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp31 = tl.load(in_ptr1 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp35 = tl.load(in_ptr2 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp22 = tl.full([1, 1], 192.0, tl.float32)
        tmp23 = (tmp15 / tmp22)
        tmp24 = (x1).to(tl.int32)
        tmp25 = tl.full([1, 1], 14, tl.int64)
        tmp26 = tmp24 < tmp25
        tmp27 = (x0).to(tl.int32)
        tmp28 = tmp27 < tmp25
        tmp29 = tmp26 & tmp28
        tmp30 = tl.load(in_ptr0 + (r0_3 + 192*((x0 % 7)) + 1344*((x1 % 7)) + 9408*(x0 // 7) + 18816*(x1 // 7) + 37632*x2), r0_mask & tmp29 & xmask, eviction_policy='evict_first', other=0.0)
        tmp32 = tmp30 * tmp31
        tmp33 = tmp32 * tmp22
        tmp34 = tmp33 - tmp10
        tmp36 = tmp35 - tmp13
        tmp37 = tmp36 * tmp15
        tmp38 = tmp37 * tmp19
        tmp39 = tmp34 - tmp38
        tmp40 = tmp23 * tmp39
        tmp41 = tmp21 + tmp40
        tl.store(in_out_ptr0 + (r0_3 + 192*x4), tmp41, r0_mask & xmask)
