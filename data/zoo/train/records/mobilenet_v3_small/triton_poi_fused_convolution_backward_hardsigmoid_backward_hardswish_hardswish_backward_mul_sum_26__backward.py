import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_convolution_backward_hardsigmoid_backward_hardswish_hardswish_backward_mul_sum_26', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 13, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 10368}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_backward_hardsigmoid_backward_hardswish_hardswish_backward_mul_sum_26(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (6*x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (6*x0), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr0 + (1 + 6*x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr1 + (1 + 6*x0), xmask, eviction_policy='evict_last')
    tmp20 = tl.load(in_ptr0 + (2 + 6*x0), xmask, eviction_policy='evict_last')
    tmp21 = tl.load(in_ptr1 + (2 + 6*x0), xmask, eviction_policy='evict_last')
    tmp29 = tl.load(in_ptr0 + (3 + 6*x0), xmask, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr1 + (3 + 6*x0), xmask, eviction_policy='evict_last')
    tmp38 = tl.load(in_ptr0 + (4 + 6*x0), xmask, eviction_policy='evict_last')
    tmp39 = tl.load(in_ptr1 + (4 + 6*x0), xmask, eviction_policy='evict_last')
    tmp47 = tl.load(in_ptr0 + (5 + 6*x0), xmask, eviction_policy='evict_last')
    tmp48 = tl.load(in_ptr1 + (5 + 6*x0), xmask, eviction_policy='evict_last')
    tmp56 = tl.load(in_ptr2 + (x0), xmask)
    tmp2 = tl.full([1], 3.0, tl.float32)
    tmp3 = tmp1 + tmp2
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = triton_helpers.maximum(tmp3, tmp4)
    tmp6 = tl.full([1], 6.0, tl.float32)
    tmp7 = triton_helpers.minimum(tmp5, tmp6)
    tmp8 = tmp1 * tmp7
    tmp9 = (tmp8 / tmp6)
    tmp10 = tmp0 * tmp9
    tmp13 = tmp12 + tmp2
    tmp14 = triton_helpers.maximum(tmp13, tmp4)
    tmp15 = triton_helpers.minimum(tmp14, tmp6)
    tmp16 = tmp12 * tmp15
    tmp17 = (tmp16 / tmp6)
    tmp18 = tmp11 * tmp17
    tmp19 = tmp10 + tmp18
    tmp22 = tmp21 + tmp2
    tmp23 = triton_helpers.maximum(tmp22, tmp4)
    tmp24 = triton_helpers.minimum(tmp23, tmp6)
    tmp25 = tmp21 * tmp24
    tmp26 = (tmp25 / tmp6)
    tmp27 = tmp20 * tmp26
    tmp28 = tmp19 + tmp27
    tmp31 = tmp30 + tmp2
    tmp32 = triton_helpers.maximum(tmp31, tmp4)
    tmp33 = triton_helpers.minimum(tmp32, tmp6)
    tmp34 = tmp30 * tmp33
    tmp35 = (tmp34 / tmp6)
    tmp36 = tmp29 * tmp35
    tmp37 = tmp28 + tmp36
    tmp40 = tmp39 + tmp2
    tmp41 = triton_helpers.maximum(tmp40, tmp4)
    tmp42 = triton_helpers.minimum(tmp41, tmp6)
    tmp43 = tmp39 * tmp42
    tmp44 = (tmp43 / tmp6)
    tmp45 = tmp38 * tmp44
    tmp46 = tmp37 + tmp45
    tmp49 = tmp48 + tmp2
    tmp50 = triton_helpers.maximum(tmp49, tmp4)
    tmp51 = triton_helpers.minimum(tmp50, tmp6)
    tmp52 = tmp48 * tmp51
    tmp53 = (tmp52 / tmp6)
    tmp54 = tmp47 * tmp53
    tmp55 = tmp46 + tmp54
    tmp57 = tl.full([1], -3.0, tl.float32)
    tmp58 = tmp56 > tmp57
    tmp59 = tmp56 < tmp2
    tmp60 = tmp58 & tmp59
    tmp61 = tl.full([1], 0.16666666666666666, tl.float32)
    tmp62 = tmp55 * tmp61
    tmp63 = tl.where(tmp60, tmp62, tmp4)
    tl.store(in_out_ptr0 + (x0), tmp63, xmask)
