import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1048576}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'ks3': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_native_group_norm_native_group_norm_backward_2', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 9437504}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_native_group_norm_native_group_norm_backward_2(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, ks0, ks1, ks2, ks3, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x4 = xindex
    x6 = xindex // ks0
    x7 = ((xindex // ks1) % 32)
    tmp0 = tl.load(in_out_ptr0 + (x4), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (x6), xmask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr1 + (x7), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (x4), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (x6), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr4 + (x6), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr5 + (x6), xmask, eviction_policy='evict_last')
    tmp3 = tmp1 * tmp2
    tmp4 = tmp0 * tmp3
    tmp8 = tmp6 * tmp7
    tmp10 = tmp8 - tmp9
    tmp11 = tmp10 * tmp1
    tmp12 = tmp11 * tmp1
    tmp13 = tmp12 * tmp1
    tmp14 = tl.full([1], 8.0, tl.float32)
    tmp15 = (ks2).to(tl.float32)
    tmp16 = (tmp15).to(tl.float32)
    tmp17 = tmp14 * tmp16
    tmp18 = (ks3).to(tl.float32)
    tmp19 = (tmp18).to(tl.float32)
    tmp20 = tmp17 * tmp19
    tmp21 = tmp20.to(tl.float64)
    tmp22 = tl.full([1], 1.0, tl.float64)
    tmp23 = (tmp22 / tmp21)
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp13 * tmp24
    tmp26 = tmp5 * tmp25
    tmp27 = tmp4 + tmp26
    tmp28 = -tmp25
    tmp29 = tmp28 * tmp7
    tmp30 = tmp6 * tmp1
    tmp31 = tmp30 * tmp24
    tmp32 = tmp29 - tmp31
    tmp33 = tmp27 + tmp32
    tl.store(in_out_ptr0 + (x4), tmp33, xmask)
