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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*i1', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*i64', 'in_ptr8': '*i64', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_embedding_dense_backward_expand_native_dropout_backward_native_layer_norm_backward_view_18', 'mutated_arg_names': ['in_out_ptr0', 'out_ptr3', 'out_ptr4'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 10, 'num_store': 4, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 572, 'r0_': 92608}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_embedding_dense_backward_expand_native_dropout_backward_native_layer_norm_backward_view_18(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr2, out_ptr3, out_ptr4, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp24 = tl.load(in_ptr6 + (x0), xmask, eviction_policy='evict_last')
    tmp31 = tl.load(in_ptr7 + (x2), xmask, eviction_policy='evict_last')
    tmp50 = tl.load(in_ptr8 + (x0), xmask, eviction_policy='evict_last')
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
    tmp19 = tmp13 * tmp18
    tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
    tmp22 = tl.where(xmask, tmp20, 0)
    tmp23 = tl.sum(tmp22, 1)[:, None].to(tl.float32)
    tmp25 = tl.full([1, 1], 64.0, tl.float32)
    tmp26 = tmp13 * tmp25
    tmp27 = tmp26 - tmp17
    tmp28 = tmp18 * tmp23
    tmp29 = tmp27 - tmp28
    tmp30 = tmp24 * tmp29
    tmp32 = tl.full([1, 1], 1, tl.int64)
    tmp33 = triton_helpers.minimum(tmp32, tmp31)
    tmp34 = tl.full([1, 1], -2, tl.int64)
    tmp35 = triton_helpers.maximum(tmp34, tmp33)
    tmp36 = (tl.full([1, 1], 2, tl.int32)).to(tl.int32)
    tmp37 = tmp35 + tmp36
    tmp38 = tmp35 < 0
    tmp39 = tl.where(tmp38, tmp37, tmp35)
    tmp40 = tl.full([1, 1], 0, tl.int64)
    tmp41 = tmp31 >= tmp40
    tmp42 = tl.full([1, 1], 2, tl.int64)
    tmp43 = tmp31 < tmp42
    tmp44 = tmp41 & tmp43
    tmp45 = tl.full([1, 1], -1, tl.int64)
    tmp46 = tmp31 != tmp45
    tmp47 = tmp44 & tmp46
    tmp48 = tl.full([1, 1], 0.0, tl.float32)
    tmp49 = tl.where(tmp47, tmp30, tmp48)
    tmp51 = tl.full([1, 1], 999, tl.int64)
    tmp52 = triton_helpers.minimum(tmp51, tmp50)
    tmp53 = tl.full([1, 1], -1000, tl.int64)
    tmp54 = triton_helpers.maximum(tmp53, tmp52)
    tmp55 = (tl.full([1, 1], 1000, tl.int32)).to(tl.int32)
    tmp56 = tmp54 + tmp55
    tmp57 = tmp54 < 0
    tmp58 = tl.where(tmp57, tmp56, tmp54)
    tmp59 = tmp50 >= tmp40
    tmp60 = tl.full([1, 1], 1000, tl.int64)
    tmp61 = tmp50 < tmp60
    tmp62 = tmp59 & tmp61
    tmp63 = tmp50 != tmp40
    tmp64 = tmp62 & tmp63
    tmp65 = tl.where(tmp64, tmp30, tmp48)
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp11, xmask)
    tl.store(out_ptr2 + (r0_1 + 64*x0), tmp30, xmask)
    tl.atomic_add(out_ptr3 + (tl.broadcast_to(r0_1 + 64*tmp39, [XBLOCK, R0_BLOCK])), tmp49, xmask, sem='relaxed')
    tl.atomic_add(out_ptr4 + (tl.broadcast_to(r0_1 + 64*tmp58, [XBLOCK, R0_BLOCK])), tmp65, xmask, sem='relaxed')
