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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_add_clone_div_mul_native_layer_norm_native_layer_norm_backward_permute_roll_slice_view_35', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 3, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 2304, 'r0_': 1328640}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_add_clone_div_mul_native_layer_norm_native_layer_norm_backward_permute_roll_slice_view_35(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % 12)
    x1 = ((xindex // 12) % 8)
    x2 = xindex // 96
    tmp2 = tl.load(in_ptr2 + (x2), xmask, eviction_policy='evict_last')
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_3 + 192*(((((11 + x0) % 14)) % 7)) + 1344*(((((11 + x1) % 14)) % 7)) + 9408*((((11 + x0) // 7) % 2)) + 18816*((((11 + x1) // 7) % 2)) + 37632*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.full([1, 1], 0.9454545454545454, tl.float32)
        tmp4 = (tmp2 / tmp3)
        tmp5 = tmp1 * tmp4
        tmp6 = tmp0 + tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    tmp10 = tl.full([1, 1], 192.0, tl.float32)
    tmp11 = (tmp8 / tmp10)
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp12 = tl.load(in_ptr0 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp13 = tl.load(in_ptr1 + (r0_3 + 192*(((((11 + x0) % 14)) % 7)) + 1344*(((((11 + x1) % 14)) % 7)) + 9408*((((11 + x0) // 7) % 2)) + 18816*((((11 + x1) // 7) % 2)) + 37632*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp14 = tl.full([1, 1], 0.9454545454545454, tl.float32)
        tmp15 = (tmp2 / tmp14)
        tmp16 = tmp13 * tmp15
        tmp17 = tmp12 + tmp16
        tmp18 = tmp17 - tmp11
        tmp19 = tmp18 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp23 = tl.load(in_ptr0 + (r0_3 + 192*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp24 = tl.load(in_ptr1 + (r0_3 + 192*(((((11 + x0) % 14)) % 7)) + 1344*(((((11 + x1) % 14)) % 7)) + 9408*((((11 + x0) // 7) % 2)) + 18816*((((11 + x1) // 7) % 2)) + 37632*x2), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp36 = tl.load(in_ptr3 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp38 = tl.load(in_ptr4 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp25 = tl.full([1, 1], 0.9454545454545454, tl.float32)
        tmp26 = (tmp2 / tmp25)
        tmp27 = tmp24 * tmp26
        tmp28 = tmp23 + tmp27
        tmp29 = tmp28 - tmp11
        tmp30 = tl.full([1, 1], 192.0, tl.float32)
        tmp31 = (tmp21 / tmp30)
        tmp32 = tl.full([1, 1], 1e-05, tl.float32)
        tmp33 = tmp31 + tmp32
        tmp34 = libdevice.rsqrt(tmp33)
        tmp35 = tmp29 * tmp34
        tmp37 = tmp35 * tmp36
        tmp39 = tmp37 + tmp38
        tl.store(out_ptr1 + (r0_3 + 192*x4), tmp35, r0_mask & xmask)
        tl.store(out_ptr2 + (r0_3 + 192*x4), tmp39, r0_mask & xmask)
    tmp40 = tl.full([1, 1], 192.0, tl.float32)
    tmp41 = (tmp21 / tmp40)
    tmp42 = tl.full([1, 1], 1e-05, tl.float32)
    tmp43 = tmp41 + tmp42
    tmp44 = libdevice.rsqrt(tmp43)
    tmp45 = (tmp44 / tmp40)
    tl.store(out_ptr3 + (x4), tmp45, xmask)
