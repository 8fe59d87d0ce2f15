import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__native_batch_norm_legit_functional_add_convolution_backward_div_expand_hardsigmoid_hardswish_backward_mul_native_batch_norm_backward_63', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 142464}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_add_convolution_backward_div_expand_hardsigmoid_hardswish_backward_mul_native_batch_norm_backward_63(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x4 = xindex // 24
    x1 = ((xindex // 24) % 96)
    tmp0 = tl.load(in_out_ptr0 + (x3), xmask)
    tmp5 = tl.load(in_ptr0 + (x3), xmask)
    tmp6 = tl.load(in_ptr1 + (x4), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr2 + (x4), xmask, eviction_policy='evict_last')
    tmp24 = tl.load(in_ptr3 + (x3), xmask)
    tmp25 = tl.load(in_ptr4 + (x1), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr5 + (x1), xmask, eviction_policy='evict_last')
    tmp31 = tl.load(in_ptr6 + (x1), xmask, eviction_policy='evict_last')
    tmp36 = tl.load(in_ptr7 + (x1), xmask, eviction_policy='evict_last')
    tmp39 = tl.load(in_ptr8 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1], -3.0, tl.float32)
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], 3.0, tl.float32)
    tmp4 = tmp0 < tmp3
    tmp7 = tmp6 + tmp3
    tmp8 = tl.full([1], 0.0, tl.float32)
    tmp9 = triton_helpers.maximum(tmp7, tmp8)
    tmp10 = tl.full([1], 6.0, tl.float32)
    tmp11 = triton_helpers.minimum(tmp9, tmp10)
    tmp12 = (tmp11 / tmp10)
    tmp13 = tmp5 * tmp12
    tmp15 = tl.full([1], 24.0, tl.float32)
    tmp16 = (tmp14 / tmp15)
    tmp17 = tmp13 + tmp16
    tmp18 = (tmp0 / tmp3)
    tmp19 = tl.full([1], 0.5, tl.float32)
    tmp20 = tmp18 + tmp19
    tmp21 = tmp17 * tmp20
    tmp22 = tl.where(tmp4, tmp21, tmp17)
    tmp23 = tl.where(tmp2, tmp8, tmp22)
    tmp26 = tmp24 - tmp25
    tmp28 = ((tl.full([], 1.00000000000000, tl.float64) / ((2304*ks0) / 96))).to(tl.float32)
    tmp29 = (tmp28).to(tl.float32)
    tmp30 = tmp27 * tmp29
    tmp32 = tmp31 * tmp31
    tmp33 = tmp30 * tmp32
    tmp34 = tmp26 * tmp33
    tmp35 = tmp23 - tmp34
    tmp37 = tmp36 * tmp29
    tmp38 = tmp35 - tmp37
    tmp40 = tmp31 * tmp39
    tmp41 = tmp38 * tmp40
    tl.store(in_out_ptr0 + (x3), tmp41, xmask)
