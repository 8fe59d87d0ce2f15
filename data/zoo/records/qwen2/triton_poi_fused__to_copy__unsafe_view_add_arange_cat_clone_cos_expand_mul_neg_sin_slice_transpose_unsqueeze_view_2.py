import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_arange_cat_clone_cos_expand_mul_neg_sin_slice_transpose_unsqueeze_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 19968, 'x': 15008}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_view_add_arange_cat_clone_cos_expand_mul_neg_sin_slice_transpose_unsqueeze_view_2(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    xnumel = 16
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex
    y0 = (yindex % ks0)
    y1 = ((yindex // ks0) % 4)
    y2 = yindex // ks1
    y5 = yindex // ks0
    tmp0 = tl.load(in_ptr0 + (x3 + 16*(y1 // 2) + 32*y0 + 32*ks0*y2), xmask & ymask)
    tmp1 = tl.load(in_ptr1 + ((x3 % 8)), xmask, eviction_policy='evict_last')
    tmp2 = (y0).to(tl.float32)
    tmp3 = (tmp2).to(tl.float32)
    tmp4 = tmp3 * tmp1
    tmp5 = tl_math.cos(tmp4)
    tmp6 = tl.full([1, 1], 1.0, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp0 * tmp7
    tmp9 = (x3).to(tl.int32)
    tmp10 = tl.full([1, 1], 0, tl.int64)
    tmp11 = tmp9 >= tmp10
    tmp12 = (x3).to(tl.int64)
    tmp13 = (tmp12).to(tl.int64)
    tmp14 = tl.full([1, 1], 8, tl.int64)
    tmp15 = tmp13 < tmp14
    tmp16 = tl.load(in_ptr0 + (8 + 16*(y1 // 2) + 32*y0 + 32*ks0*y2 + (x3)), tmp15 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp17 = -tmp16
    tmp18 = tl.full(tmp17.shape, 0.0, tmp17.dtype)
    tmp19 = tl.where(tmp15, tmp17, tmp18)
    tmp20 = tmp9 >= tmp14
    tmp21 = tl.full([1, 1], 16, tl.int64)
    tmp22 = tmp9 < tmp21
    tmp23 = tl.load(in_ptr0 + (16*(y1 // 2) + 32*y0 + 32*ks0*y2 + ((-8) + x3)), tmp20 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp24 = tl.where(tmp15, tmp19, tmp23)
    tmp25 = tl_math.sin(tmp4)
    tmp26 = tmp25 * tmp6
    tmp27 = tmp24 * tmp26
    tmp28 = tmp8 + tmp27
    tmp29 = tl.full([1, 1], 0.5, tl.float32)
    tmp30 = tmp28 * tmp29
    tl.store(out_ptr0 + (y0 + ks0*x3 + 16*ks0*y5), tmp30, xmask & ymask)
