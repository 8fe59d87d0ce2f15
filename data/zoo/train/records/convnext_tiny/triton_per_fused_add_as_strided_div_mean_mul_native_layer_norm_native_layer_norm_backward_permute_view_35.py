import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr1': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_as_strided_div_mean_mul_native_layer_norm_native_layer_norm_backward_permute_view_35', 'mutated_arg_names': ['in_out_ptr1'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 16, 'num_store': 3, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 9, 'r0_': 156672}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_as_strided_div_mean_mul_native_layer_norm_native_layer_norm_backward_permute_view_35(in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp3 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr3 + (r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp9 = tl.load(in_ptr1 + (768 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp12 = tl.load(in_ptr3 + (768 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp15 = tl.load(in_ptr1 + (1536 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp18 = tl.load(in_ptr3 + (1536 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp21 = tl.load(in_ptr1 + (2304 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp24 = tl.load(in_ptr3 + (2304 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp27 = tl.load(in_ptr1 + (3072 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp30 = tl.load(in_ptr3 + (3072 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp33 = tl.load(in_ptr1 + (3840 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp36 = tl.load(in_ptr3 + (3840 + r0_1 + 4608*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp58 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp60 = tl.load(in_ptr5 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tmp0 * tmp1
    tmp4 = tl.full([1, 1], 0.9, tl.float32)
    tmp5 = (tmp3 / tmp4)
    tmp6 = tmp2 * tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp0 * tmp9
    tmp11 = tmp10 * tmp5
    tmp13 = tmp11 + tmp12
    tmp14 = tmp8 + tmp13
    tmp16 = tmp0 * tmp15
    tmp17 = tmp16 * tmp5
    tmp19 = tmp17 + tmp18
    tmp20 = tmp14 + tmp19
    tmp22 = tmp0 * tmp21
    tmp23 = tmp22 * tmp5
    tmp25 = tmp23 + tmp24
    tmp26 = tmp20 + tmp25
    tmp28 = tmp0 * tmp27
    tmp29 = tmp28 * tmp5
    tmp31 = tmp29 + tmp30
    tmp32 = tmp26 + tmp31
    tmp34 = tmp0 * tmp33
    tmp35 = tmp34 * tmp5
    tmp37 = tmp35 + tmp36
    tmp38 = tmp32 + tmp37
    tmp39 = tl.full([1, 1], 6.0, tl.float32)
    tmp40 = (tmp38 / tmp39)
    tmp41 = tl.broadcast_to(tmp40, [XBLOCK, R0_BLOCK])
    tmp43 = tl.where(r0_mask & xmask, tmp41, 0)
    tmp44 = tl.sum(tmp43, 1)[:, None].to(tl.float32)
    tmp45 = tl.full([1, 1], 768.0, tl.float32)
    tmp46 = (tmp44 / tmp45)
    tmp47 = tmp40 - tmp46
    tmp48 = tmp47 * tmp47
    tmp49 = tl.broadcast_to(tmp48, [XBLOCK, R0_BLOCK])
    tmp51 = tl.where(r0_mask & xmask, tmp49, 0)
    tmp52 = tl.sum(tmp51, 1)[:, None].to(tl.float32)
    tmp53 = (tmp52 / tmp45)
    tmp54 = tl.full([1, 1], 1e-06, tl.float32)
    tmp55 = tmp53 + tmp54
    tmp56 = libdevice.rsqrt(tmp55)
    tmp57 = tmp47 * tmp56
    tmp59 = tmp57 * tmp58
    tmp61 = tmp59 + tmp60
    tmp62 = (tmp56 / tmp45)
    tl.store(in_out_ptr1 + (r0_1 + 768*x0), tmp57, r0_mask & xmask)
    tl.store(out_ptr1 + (r0_1 + 768*x0), tmp61, r0_mask & xmask)
    tl.store(out_ptr2 + (x0), tmp62, xmask)
