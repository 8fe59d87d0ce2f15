import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_add_arange_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 49952}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_8(in_ptr0, in_ptr1, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x4 = xindex
    x2 = ((xindex // 64) % ks0)
    tmp32 = tl.load(in_ptr0 + (x4), xmask, eviction_policy='evict_last')
    tmp33 = tl.load(in_ptr1 + ((x4 % 8)), xmask, eviction_policy='evict_last')
    tmp0 = (x0).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tmp2 = tl.full([1], 8, tl.int64)
    tmp3 = tmp1 >= tmp2
    tmp4 = tl.load(in_ptr0 + ((-8) + x4), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp5 = tl.load(in_ptr1 + ((x4 % 8)), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp6 = (x2).to(tl.float32)
    tmp7 = (tmp6).to(tl.float32)
    tmp8 = tmp7 * tmp5
    tmp9 = tl_math.sin(tmp8)
    tmp10 = tl.full([1], 1.0, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = tmp4 * tmp11
    tmp13 = -tmp12
    tmp14 = tl.full(tmp13.shape, 0.0, tmp13.dtype)
    tmp15 = tl.where(tmp3, tmp13, tmp14)
    tmp16 = tl.full([1], 0.0, tl.float32)
    tmp17 = tl.where(tmp3, tmp15, tmp16)
    tmp18 = tmp1 < tmp2
    tmp19 = tl.load(in_ptr0 + (8 + x4), tmp18 & xmask, eviction_policy='evict_last', other=0.0)
    tmp20 = tl.load(in_ptr1 + ((x4 % 8)), tmp18 & xmask, eviction_policy='evict_last', other=0.0)
    tmp21 = (x2).to(tl.float32)
    tmp22 = (tmp21).to(tl.float32)
    tmp23 = tmp22 * tmp20
    tmp24 = tl_math.sin(tmp23)
    tmp25 = tl.full([1], 1.0, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = tmp19 * tmp26
    tmp28 = tl.full(tmp27.shape, 0.0, tmp27.dtype)
    tmp29 = tl.where(tmp18, tmp27, tmp28)
    tmp30 = tl.where(tmp18, tmp29, tmp16)
    tmp31 = tmp17 + tmp30
    tmp34 = (x2).to(tl.float32)
    tmp35 = (tmp34).to(tl.float32)
    tmp36 = tmp35 * tmp33
    tmp37 = tl_math.cos(tmp36)
    tmp38 = tl.full([1], 1.0, tl.float32)
    tmp39 = tmp37 * tmp38
    tmp40 = tmp32 * tmp39
    tmp41 = tmp31 + tmp40
    tl.store(out_ptr0 + (x4), tmp41, xmask)
