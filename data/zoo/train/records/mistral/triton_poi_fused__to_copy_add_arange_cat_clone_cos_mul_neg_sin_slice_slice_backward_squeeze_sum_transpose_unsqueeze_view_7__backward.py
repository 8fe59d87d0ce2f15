import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_add_arange_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 34976}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_7(in_ptr0, in_ptr1, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x4 = xindex // 16
    x5 = xindex
    x2 = ((xindex // 32) % ks0)
    tmp36 = tl.load(in_ptr0 + (x0 + 32*x4), xmask, eviction_policy='evict_last')
    tmp37 = tl.load(in_ptr0 + (16 + x0 + 32*x4), xmask, eviction_policy='evict_last')
    tmp39 = tl.load(in_ptr1 + ((x5 % 8)), xmask, eviction_policy='evict_last')
    tmp0 = (x0).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tmp2 = tl.full([1], 8, tl.int64)
    tmp3 = tmp1 >= tmp2
    tmp4 = tl.load(in_ptr0 + ((-8) + x0 + 32*x4), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp5 = tl.load(in_ptr0 + (8 + x0 + 32*x4), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp6 = tmp4 + tmp5
    tmp7 = tl.load(in_ptr1 + ((x5 % 8)), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp8 = (x2).to(tl.float32)
    tmp9 = (tmp8).to(tl.float32)
    tmp10 = tmp9 * tmp7
    tmp11 = tl_math.sin(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 * tmp12
    tmp14 = tmp6 * tmp13
    tmp15 = -tmp14
    tmp16 = tl.full(tmp15.shape, 0.0, tmp15.dtype)
    tmp17 = tl.where(tmp3, tmp15, tmp16)
    tmp18 = tl.full([1], 0.0, tl.float32)
    tmp19 = tl.where(tmp3, tmp17, tmp18)
    tmp20 = tmp1 < tmp2
    tmp21 = tl.load(in_ptr0 + (8 + x0 + 32*x4), tmp20 & xmask, eviction_policy='evict_last', other=0.0)
    tmp22 = tl.load(in_ptr0 + (24 + x0 + 32*x4), tmp20 & xmask, eviction_policy='evict_last', other=0.0)
    tmp23 = tmp21 + tmp22
    tmp24 = tl.load(in_ptr1 + ((x5 % 8)), tmp20 & xmask, eviction_policy='evict_last', other=0.0)
    tmp25 = (x2).to(tl.float32)
    tmp26 = (tmp25).to(tl.float32)
    tmp27 = tmp26 * tmp24
    tmp28 = tl_math.sin(tmp27)
    tmp29 = tl.full([1], 1.0, tl.float32)
    tmp30 = tmp28 * tmp29
    tmp31 = tmp23 * tmp30
    tmp32 = tl.full(tmp31.shape, 0.0, tmp31.dtype)
    tmp33 = tl.where(tmp20, tmp31, tmp32)
    tmp34 = tl.where(tmp20, tmp33, tmp18)
    tmp35 = tmp19 + tmp34
    tmp38 = tmp36 + tmp37
    tmp40 = (x2).to(tl.float32)
    tmp41 = (tmp40).to(tl.float32)
    tmp42 = tmp41 * tmp39
    tmp43 = tl_math.cos(tmp42)
    tmp44 = tl.full([1], 1.0, tl.float32)
    tmp45 = tmp43 * tmp44
    tmp46 = tmp38 * tmp45
    tmp47 = tmp35 + tmp46
    tl.store(out_ptr0 + (x5), tmp47, xmask)
