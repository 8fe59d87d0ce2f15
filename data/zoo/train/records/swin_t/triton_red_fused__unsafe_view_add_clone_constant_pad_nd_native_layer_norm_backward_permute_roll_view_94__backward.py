import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 2048, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_add_clone_constant_pad_nd_native_layer_norm_backward_permute_roll_view_94', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 4800, 'r0_': 1769856}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_add_clone_constant_pad_nd_native_layer_norm_backward_permute_roll_view_94(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    _tmp23 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x5 = xindex
    _tmp28 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp20 = tl.load(in_ptr3 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp25 = tl.load(in_ptr4 + (r0_3 + 96*x5), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp0 = (x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 21, tl.int64)
        tmp2 = tmp0 < tmp1
        tmp3 = (x0).to(tl.int32)
        tmp4 = tl.full([1, 1], 28, tl.int64)
        tmp5 = tmp3 < tmp4
        tmp6 = tmp2 & tmp5
        tmp7 = tl.load(in_ptr0 + (tl.broadcast_to(x1, [XBLOCK, R0_BLOCK])), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0)
        tmp8 = (tl.full([1, 1], 21, tl.int32)).to(tl.int32)
        tmp9 = tmp7 + tmp8
        tmp10 = tmp7 < 0
        tmp11 = tl.where(tmp10, tmp9, tmp7)
        tl.device_assert(((0 <= tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK]) < 21)) | ~(r0_mask & tmp6 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK]) < 21")
        tmp13 = tl.load(in_ptr1 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0)
        tmp14 = (tl.full([1, 1], 28, tl.int32)).to(tl.int32)
        tmp15 = tmp13 + tmp14
        tmp16 = tmp13 < 0
        tmp17 = tl.where(tmp16, tmp15, tmp13)
        tl.device_assert(((0 <= tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK]) < 28)) | ~(r0_mask & tmp6 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK]) < 28")
        tmp19 = tl.load(in_ptr2 + (r0_3 + 96*((tmp17 % 7)) + 672*((tmp11 % 7)) + 4704*(((tmp17 // 7) % 4)) + 18816*(((tmp11 // 7) % 3)) + 56448*x2), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0)
        tmp21 = tmp19 * tmp20
        tmp22 = tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK])
        tmp24 = _tmp23 + tmp22
        _tmp23 = tl.where(r0_mask & xmask, tmp24, _tmp23)
        tmp26 = tmp21 * tmp25
        tmp27 = tl.broadcast_to(tmp26, [XBLOCK, R0_BLOCK])
        tmp29 = _tmp28 + tmp27
        _tmp28 = tl.where(r0_mask & xmask, tmp29, _tmp28)
    tmp23 = tl.sum(_tmp23, 1)[:, None]
    tmp28 = tl.sum(_tmp28, 1)[:, None]
    tmp31 = tl.load(in_ptr5 + (x5), xmask, eviction_policy='evict_last')
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp30 = tl.load(in_out_ptr0 + (r0_3 + 96*x5), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp52 = tl.load(in_ptr3 + (r0_3), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp57 = tl.load(in_ptr4 + (r0_3 + 96*x5), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp32 = (x1).to(tl.int32)
        tmp33 = tl.full([1, 1], 21, tl.int64)
        tmp34 = tmp32 < tmp33
        tmp35 = (x0).to(tl.int32)
        tmp36 = tl.full([1, 1], 28, tl.int64)
        tmp37 = tmp35 < tmp36
        tmp38 = tmp34 & tmp37
        tmp39 = tl.load(in_ptr0 + (tl.broadcast_to(x1, [XBLOCK, R0_BLOCK])), r0_mask & tmp38 & xmask, eviction_policy='evict_last', other=0.0)
        tmp40 = (tl.full([1, 1], 21, tl.int32)).to(tl.int32)
        tmp41 = tmp39 + tmp40
        tmp42 = tmp39 < 0
        tmp43 = tl.where(tmp42, tmp41, tmp39)
        tl.device_assert(((0 <= tl.broadcast_to(tmp43, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp43, [XBLOCK, R0_BLOCK]) < 21)) | ~(r0_mask & tmp38 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp43, [XBLOCK, R0_BLOCK]) < 21")
        tmp45 = tl.load(in_ptr1 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp38 & xmask, eviction_policy='evict_last', other=0.0)
        tmp46 = (tl.full([1, 1], 28, tl.int32)).to(tl.int32)
        tmp47 = tmp45 + tmp46
        tmp48 = tmp45 < 0
        tmp49 = tl.where(tmp48, tmp47, tmp45)
        tl.device_assert(((0 <= tl.broadcast_to(tmp49, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp49, [XBLOCK, R0_BLOCK]) < 28)) | ~(r0_mask & tmp38 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp49, [XBLOCK, R0_BLOCK]) < 28")
        tmp51 = tl.load(in_ptr2 + (r0_3 + 96*((tmp49 % 7)) + 672*((tmp43 % 7)) + 4704*(((tmp49 // 7) % 4)) + 18816*(((tmp43 // 7) % 3)) + 56448*x2), r0_mask & tmp38 & xmask, eviction_policy='evict_first', other=0.0)
        tmp53 = tmp51 * tmp52
        tmp54 = tl.full([1, 1], 96.0, tl.float32)
        tmp55 = tmp53 * tmp54
        tmp56 = tmp55 - tmp23
        tmp58 = tmp57 * tmp28
        tmp59 = tmp56 - tmp58
        tmp60 = tmp31 * tmp59
        tmp61 = tmp30 + tmp60
        tl.store(in_out_ptr0 + (r0_3 + 96*x5), tmp61, r0_mask & xmask)
