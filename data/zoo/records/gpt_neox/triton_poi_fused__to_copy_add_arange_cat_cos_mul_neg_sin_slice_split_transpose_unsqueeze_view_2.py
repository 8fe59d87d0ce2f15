import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_add_arange_cat_cos_mul_neg_sin_slice_split_transpose_unsqueeze_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 79872}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_cat_cos_mul_neg_sin_slice_split_transpose_unsqueeze_view_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x4 = xindex // 16
    x2 = ((xindex // 64) % ks0)
    x5 = xindex
    tmp0 = (x0).to(tl.int32)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = (x0).to(tl.int64)
    tmp4 = (tmp3).to(tl.int64)
    tmp5 = tl.full([1], 4, tl.int64)
    tmp6 = tmp4 < tmp5
    tmp7 = tl.load(in_ptr0 + (48*x4 + (x0)), tmp6 & xmask, eviction_policy='evict_last', other=0.0)
    tmp8 = tl.load(in_ptr1 + (((x0) % 2)), tmp6 & xmask, eviction_policy='evict_last', other=0.0)
    tmp9 = (x2).to(tl.float32)
    tmp10 = (tmp9).to(tl.float32)
    tmp11 = tmp10 * tmp8
    tmp12 = tl_math.cos(tmp11)
    tmp13 = tl.full([1], 1.0, tl.float32)
    tmp14 = tmp12 * tmp13
    tmp15 = tmp7 * tmp14
    tmp16 = (x0).to(tl.int32)
    tmp17 = tl.full([1], 0, tl.int64)
    tmp18 = tmp16 >= tmp17
    tmp19 = (x0).to(tl.int64)
    tmp20 = (tmp19).to(tl.int64)
    tmp21 = tl.full([1], 2, tl.int64)
    tmp22 = tmp20 < tmp21
    tmp23 = tmp22 & tmp6
    tmp24 = tl.load(in_ptr0 + (2 + 48*x4 + (x0)), tmp23 & xmask, eviction_policy='evict_last', other=0.0)
    tmp25 = -tmp24
    tmp26 = tl.full(tmp25.shape, 0.0, tmp25.dtype)
    tmp27 = tl.where(tmp23, tmp25, tmp26)
    tmp28 = tmp16 >= tmp21
    tmp29 = tl.full([1], 4, tl.int64)
    tmp30 = tmp16 < tmp29
    tmp31 = tmp28 & tmp6
    tmp32 = tl.load(in_ptr0 + (48*x4 + ((-2) + (x0))), tmp31 & xmask, eviction_policy='evict_last', other=0.0)
    tmp33 = tl.where(tmp22, tmp27, tmp32)
    tmp34 = tl_math.sin(tmp11)
    tmp35 = tmp34 * tmp13
    tmp36 = tmp33 * tmp35
    tmp37 = tmp15 + tmp36
    tmp38 = tl.full(tmp37.shape, 0.0, tmp37.dtype)
    tmp39 = tl.where(tmp6, tmp37, tmp38)
    tmp40 = tmp0 >= tmp5
    tmp41 = tl.full([1], 16, tl.int64)
    tmp42 = tmp0 < tmp41
    tmp43 = tl.load(in_ptr0 + (4 + 48*x4 + ((-4) + x0)), tmp40 & xmask, eviction_policy='evict_last', other=0.0)
    tmp44 = tl.where(tmp6, tmp39, tmp43)
    tmp45 = tl.load(in_ptr0 + (16 + 48*x4 + (x0)), tmp6 & xmask, eviction_policy='evict_last', other=0.0)
    tmp46 = tmp45 * tmp14
    tmp47 = tl.load(in_ptr0 + (18 + 48*x4 + (x0)), tmp23 & xmask, eviction_policy='evict_last', other=0.0)
    tmp48 = -tmp47
    tmp49 = tl.full(tmp48.shape, 0.0, tmp48.dtype)
    tmp50 = tl.where(tmp23, tmp48, tmp49)
    tmp51 = tl.load(in_ptr0 + (16 + 48*x4 + ((-2) + (x0))), tmp31 & xmask, eviction_policy='evict_last', other=0.0)
    tmp52 = tl.where(tmp22, tmp50, tmp51)
    tmp53 = tmp52 * tmp35
    tmp54 = tmp46 + tmp53
    tmp55 = tl.full(tmp54.shape, 0.0, tmp54.dtype)
    tmp56 = tl.where(tmp6, tmp54, tmp55)
    tmp57 = tl.load(in_ptr0 + (20 + 48*x4 + ((-4) + x0)), tmp40 & xmask, eviction_policy='evict_last', other=0.0)
    tmp58 = tl.where(tmp6, tmp56, tmp57)
    tl.store(out_ptr0 + (x5), tmp44, xmask)
    tl.store(out_ptr1 + (x5), tmp58, xmask)
