import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*i1', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*i64', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_embedding_dense_backward_native_dropout_backward_native_layer_norm_native_layer_norm_backward_view_16', 'mutated_arg_names': ['in_out_ptr0', 'out_ptr3'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 11, 'num_store': 3, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 624, 'r0_': 95936}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_embedding_dense_backward_native_dropout_backward_native_layer_norm_native_layer_norm_backward_view_16(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, out_ptr2, out_ptr3, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    x2 = (xindex % ks0)
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp5 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp7 = tl.load(in_ptr3 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0).to(tl.int1)
    tmp12 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp18 = tl.load(in_ptr5 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp19 = tl.load(in_ptr6 + (r0_1 + 64*x2), xmask, eviction_policy='evict_last', other=0.0)
    tmp21 = tl.load(in_ptr7 + (x0), xmask, eviction_policy='evict_last')
    tmp23 = tl.load(in_ptr8 + (x0), xmask, eviction_policy='evict_last')
    tmp37 = tl.load(in_ptr9 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp8 = tmp7.to(tl.float32)
    tmp9 = tl.full([1, 1], 1.1111111111111112, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = tmp6 * tmp10
    tmp13 = tmp11 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp20 = tmp18 + tmp19
    tmp22 = tmp20 - tmp21
    tmp24 = tmp22 * tmp23
    tmp25 = tmp13 * tmp24
    tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
    tmp28 = tl.where(xmask, tmp26, 0)
    tmp29 = tl.sum(tmp28, 1)[:, None].to(tl.float32)
    tmp30 = tl.full([1, 1], 64.0, tl.float32)
    tmp31 = (tmp23 / tmp30)
    tmp32 = tmp13 * tmp30
    tmp33 = tmp32 - tmp17
    tmp34 = tmp24 * tmp29
    tmp35 = tmp33 - tmp34
    tmp36 = tmp31 * tmp35
    tmp38 = tl.full([1, 1], 999, tl.int64)
    tmp39 = triton_helpers.minimum(tmp38, tmp37)
    tmp40 = tl.full([1, 1], -1000, tl.int64)
    tmp41 = triton_helpers.maximum(tmp40, tmp39)
    tmp42 = (tl.full([1, 1], 1000, tl.int32)).to(tl.int32)
    tmp43 = tmp41 + tmp42
    tmp44 = tmp41 < 0
    tmp45 = tl.where(tmp44, tmp43, tmp41)
    tmp46 = tl.full([1, 1], 0, tl.int64)
    tmp47 = tmp37 >= tmp46
    tmp48 = tl.full([1, 1], 1000, tl.int64)
    tmp49 = tmp37 < tmp48
    tmp50 = tmp47 & tmp49
    tmp51 = tmp37 != tmp46
    tmp52 = tmp50 & tmp51
    tmp53 = tl.full([1, 1], 0.0, tl.float32)
    tmp54 = tl.where(tmp52, tmp36, tmp53)
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp11, xmask)
    tl.store(out_ptr2 + (r0_1 + 64*x0), tmp36, xmask)
    tl.atomic_add(out_ptr3 + (tl.broadcast_to(r0_1 + 64*tmp45, [XBLOCK, R0_BLOCK])), tmp54, xmask, sem='relaxed')
