import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 2048, 'r0_': 128},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'out_ptr4': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_add_clone_constant_pad_nd_convolution_backward_native_layer_norm_backward_permute_view_100', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 15, 'num_store': 2, 'num_reduction': 4, 'autotune_hints': set(), 'tiling_scores': {'x': 898560, 'r0_': 2654976}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_add_clone_constant_pad_nd_convolution_backward_native_layer_norm_backward_permute_view_100(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 96
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = ((xindex // 24) % 16)
    x0 = (xindex % 24)
    x2 = xindex // 384
    _tmp11 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x4 = xindex
    x5 = (xindex % 384)
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp8 = tl.load(in_ptr1 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp13 = tl.load(in_ptr2 + (x5 + 384*r0_3 + 36864*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp0 = (x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 21, tl.int64)
        tmp2 = tmp0 < tmp1
        tmp3 = (x0).to(tl.int32)
        tmp4 = tl.full([1, 1], 28, tl.int64)
        tmp5 = tmp3 < tmp4
        tmp6 = tmp2 & tmp5
        tmp7 = tl.load(in_ptr0 + (r0_3 + 96*((x0 % 7)) + 672*((x1 % 7)) + 4704*(x0 // 7) + 18816*(x1 // 7) + 56448*x2), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0)
        tmp9 = tmp7 * tmp8
        tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
        tmp12 = _tmp11 + tmp10
        _tmp11 = tl.where(r0_mask & xmask, tmp12, _tmp11)
        tmp14 = tmp9 * tmp13
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
    tmp11 = tl.sum(_tmp11, 1)[:, None]
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    tmp19 = tl.load(in_ptr3 + (x4), xmask, eviction_policy='evict_last')
    _tmp42 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    tmp45 = tl.load(in_ptr6 + (x4), xmask, eviction_policy='evict_last')
    tmp47 = tl.load(in_ptr7 + (x4), xmask, eviction_policy='evict_last')
    _tmp51 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp18 = tl.load(in_out_ptr0 + (r0_3 + 96*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp30 = tl.load(in_ptr1 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp34 = tl.load(in_ptr2 + (x5 + 384*r0_3 + 36864*x2), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp39 = tl.load(in_ptr4 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp44 = tl.load(in_ptr5 + (x5 + 384*r0_3 + 36864*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp20 = tl.full([1, 1], 96.0, tl.float32)
        tmp21 = (tmp19 / tmp20)
        tmp22 = (x1).to(tl.int32)
        tmp23 = tl.full([1, 1], 21, tl.int64)
        tmp24 = tmp22 < tmp23
        tmp25 = (x0).to(tl.int32)
        tmp26 = tl.full([1, 1], 28, tl.int64)
        tmp27 = tmp25 < tmp26
        tmp28 = tmp24 & tmp27
        tmp29 = tl.load(in_ptr0 + (r0_3 + 96*((x0 % 7)) + 672*((x1 % 7)) + 4704*(x0 // 7) + 18816*(x1 // 7) + 56448*x2), r0_mask & tmp28 & xmask, eviction_policy='evict_first', other=0.0)
        tmp31 = tmp29 * tmp30
        tmp32 = tmp31 * tmp20
        tmp33 = tmp32 - tmp11
        tmp35 = tmp34 * tmp16
        tmp36 = tmp33 - tmp35
        tmp37 = tmp21 * tmp36
        tmp38 = tmp18 + tmp37
        tmp40 = tmp38 * tmp39
        tmp41 = tl.broadcast_to(tmp40, [XBLOCK, R0_BLOCK])
        tmp43 = _tmp42 + tmp41
        _tmp42 = tl.where(r0_mask & xmask, tmp43, _tmp42)
        tmp46 = tmp44 - tmp45
        tmp48 = tmp46 * tmp47
        tmp49 = tmp40 * tmp48
        tmp50 = tl.broadcast_to(tmp49, [XBLOCK, R0_BLOCK])
        tmp52 = _tmp51 + tmp50
        _tmp51 = tl.where(r0_mask & xmask, tmp52, _tmp51)
        tl.store(in_out_ptr0 + (r0_3 + 96*x4), tmp38, r0_mask & xmask)
    tmp42 = tl.sum(_tmp42, 1)[:, None]
    tmp51 = tl.sum(_tmp51, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp55 = tl.load(in_out_ptr0 + (r0_3 + 96*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp56 = tl.load(in_ptr4 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp60 = tl.load(in_ptr5 + (x5 + 384*r0_3 + 36864*x2), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp53 = tl.full([1, 1], 96.0, tl.float32)
        tmp54 = (tmp47 / tmp53)
        tmp57 = tmp55 * tmp56
        tmp58 = tmp57 * tmp53
        tmp59 = tmp58 - tmp42
        tmp61 = tmp60 - tmp45
        tmp62 = tmp61 * tmp47
        tmp63 = tmp62 * tmp51
        tmp64 = tmp59 - tmp63
        tmp65 = tmp54 * tmp64
        tl.store(out_ptr4 + (r0_3 + 96*x4), tmp65, r0_mask & xmask)
