import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_add_arange_cat_cos_mul_neg_sin_slice_slice_backward_unsqueeze_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 11, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 99840}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_cat_cos_mul_neg_sin_slice_slice_backward_unsqueeze_7(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x4 = xindex
    x2 = ((xindex // 64) % ks0)
    x1 = ((xindex // 16) % 4)
    x3 = xindex // ks1
    tmp0 = (x0).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tmp2 = tl.full([1], 4, tl.int64)
    tmp3 = tmp1 >= tmp2
    tmp4 = tl.load(in_ptr0 + (x4), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = tl.where(tmp3, tmp4, tmp5)
    tmp7 = tmp1 < tmp2
    tmp8 = (x0).to(tl.int64)
    tmp9 = (tmp8).to(tl.int64)
    tmp10 = tl.full([1], 2, tl.int64)
    tmp11 = tmp9 >= tmp10
    tmp12 = tmp11 & tmp7
    tmp13 = tl.load(in_ptr0 + ((-2) + x4), tmp12 & xmask, eviction_policy='evict_last', other=0.0)
    tmp14 = tl.load(in_ptr1 + ((x4 % 2)), tmp12 & xmask, eviction_policy='evict_last', other=0.0)
    tmp15 = (x2).to(tl.float32)
    tmp16 = (tmp15).to(tl.float32)
    tmp17 = tmp16 * tmp14
    tmp18 = tl_math.sin(tmp17)
    tmp19 = tl.full([1], 1.0, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tmp13 * tmp20
    tmp22 = -tmp21
    tmp23 = tl.full(tmp22.shape, 0.0, tmp22.dtype)
    tmp24 = tl.where(tmp12, tmp22, tmp23)
    tmp25 = tl.full([1], 0.0, tl.float32)
    tmp26 = tl.where(tmp11, tmp24, tmp25)
    tmp27 = tmp9 < tmp10
    tmp28 = tmp27 & tmp7
    tmp29 = tl.load(in_ptr0 + (2 + x4), tmp28 & xmask, eviction_policy='evict_last', other=0.0)
    tmp30 = tl.load(in_ptr1 + ((x4 % 2)), tmp28 & xmask, eviction_policy='evict_last', other=0.0)
    tmp31 = (x2).to(tl.float32)
    tmp32 = (tmp31).to(tl.float32)
    tmp33 = tmp32 * tmp30
    tmp34 = tl_math.sin(tmp33)
    tmp35 = tl.full([1], 1.0, tl.float32)
    tmp36 = tmp34 * tmp35
    tmp37 = tmp29 * tmp36
    tmp38 = tl.full(tmp37.shape, 0.0, tmp37.dtype)
    tmp39 = tl.where(tmp28, tmp37, tmp38)
    tmp40 = tl.where(tmp27, tmp39, tmp25)
    tmp41 = tmp26 + tmp40
    tmp42 = tl.load(in_ptr0 + (x4), tmp7 & xmask, eviction_policy='evict_last', other=0.0)
    tmp43 = tl.load(in_ptr1 + ((x4 % 2)), tmp7 & xmask, eviction_policy='evict_last', other=0.0)
    tmp44 = (x2).to(tl.float32)
    tmp45 = (tmp44).to(tl.float32)
    tmp46 = tmp45 * tmp43
    tmp47 = tl_math.cos(tmp46)
    tmp48 = tl.full([1], 1.0, tl.float32)
    tmp49 = tmp47 * tmp48
    tmp50 = tmp42 * tmp49
    tmp51 = tmp41 + tmp50
    tmp52 = tl.full(tmp51.shape, 0.0, tmp51.dtype)
    tmp53 = tl.where(tmp7, tmp51, tmp52)
    tmp54 = tl.where(tmp7, tmp53, tmp5)
    tmp55 = tmp6 + tmp54
    tmp56 = tl.load(in_ptr2 + (x4), tmp3 & xmask, eviction_policy='evict_last', other=0.0)
    tmp57 = tl.where(tmp3, tmp56, tmp5)
    tmp58 = tl.load(in_ptr2 + ((-2) + x4), tmp12 & xmask, eviction_policy='evict_last', other=0.0)
    tmp59 = tmp58 * tmp20
    tmp60 = -tmp59
    tmp61 = tl.full(tmp60.shape, 0.0, tmp60.dtype)
    tmp62 = tl.where(tmp12, tmp60, tmp61)
    tmp63 = tl.where(tmp11, tmp62, tmp25)
    tmp64 = tl.load(in_ptr2 + (2 + x4), tmp28 & xmask, eviction_policy='evict_last', other=0.0)
    tmp65 = tmp64 * tmp36
    tmp66 = tl.full(tmp65.shape, 0.0, tmp65.dtype)
    tmp67 = tl.where(tmp28, tmp65, tmp66)
    tmp68 = tl.where(tmp27, tmp67, tmp25)
    tmp69 = tmp63 + tmp68
    tmp70 = tl.load(in_ptr2 + (x4), tmp7 & xmask, eviction_policy='evict_last', other=0.0)
    tmp71 = tmp70 * tmp49
    tmp72 = tmp69 + tmp71
    tmp73 = tl.full(tmp72.shape, 0.0, tmp72.dtype)
    tmp74 = tl.where(tmp7, tmp72, tmp73)
    tmp75 = tl.where(tmp7, tmp74, tmp5)
    tmp76 = tmp57 + tmp75
    tl.store(out_ptr0 + (x0 + 48*x2 + 48*ks0*x1 + 192*ks0*x3), tmp55, xmask)
    tl.store(out_ptr1 + (x0 + 48*x2 + 48*ks0*x1 + 192*ks0*x3), tmp76, xmask)
