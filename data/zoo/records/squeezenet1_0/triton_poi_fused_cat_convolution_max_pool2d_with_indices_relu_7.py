import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'ks3': 'i64', 'ks4': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_cat_convolution_max_pool2d_with_indices_relu_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 473088}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_convolution_max_pool2d_with_indices_relu_7(in_ptr0, out_ptr0, ks0, ks1, ks2, ks3, ks4, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // ks0) % ks1)
    x0 = (xindex % ks0)
    x2 = xindex // ks4
    x3 = xindex
    tmp0 = (2*x1).to(tl.int32)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = (ks2).to(tl.int32)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = (2*x0).to(tl.int32)
    tmp7 = tmp6 >= tmp1
    tmp8 = (ks3).to(tl.int32)
    tmp9 = tmp6 < tmp8
    tmp10 = tmp7 & tmp9
    tmp11 = tmp5 & tmp10
    tmp12 = tl.load(in_ptr0 + (2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp11 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp13 = (1 + 2*x0).to(tl.int32)
    tmp14 = tmp13 >= tmp1
    tmp15 = tmp13 < tmp8
    tmp16 = tmp14 & tmp15
    tmp17 = tmp5 & tmp16
    tmp18 = tl.load(in_ptr0 + (1 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp17 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp19 = triton_helpers.maximum(tmp12, tmp18)
    tmp20 = (2 + 2*x0).to(tl.int32)
    tmp21 = tmp20 >= tmp1
    tmp22 = tmp20 < tmp8
    tmp23 = tmp21 & tmp22
    tmp24 = tmp5 & tmp23
    tmp25 = tl.load(in_ptr0 + (2 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp24 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp26 = triton_helpers.maximum(tmp19, tmp25)
    tmp27 = (1 + 2*x1).to(tl.int32)
    tmp28 = tmp27 >= tmp1
    tmp29 = tmp27 < tmp3
    tmp30 = tmp28 & tmp29
    tmp31 = tmp30 & tmp10
    tmp32 = tl.load(in_ptr0 + (ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp31 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp33 = triton_helpers.maximum(tmp26, tmp32)
    tmp34 = tmp30 & tmp16
    tmp35 = tl.load(in_ptr0 + (1 + ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp34 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp36 = triton_helpers.maximum(tmp33, tmp35)
    tmp37 = tmp30 & tmp23
    tmp38 = tl.load(in_ptr0 + (2 + ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp37 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp39 = triton_helpers.maximum(tmp36, tmp38)
    tmp40 = (2 + 2*x1).to(tl.int32)
    tmp41 = tmp40 >= tmp1
    tmp42 = tmp40 < tmp3
    tmp43 = tmp41 & tmp42
    tmp44 = tmp43 & tmp10
    tmp45 = tl.load(in_ptr0 + (2*ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp44 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp46 = triton_helpers.maximum(tmp39, tmp45)
    tmp47 = tmp43 & tmp16
    tmp48 = tl.load(in_ptr0 + (1 + 2*ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp47 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp49 = triton_helpers.maximum(tmp46, tmp48)
    tmp50 = tmp43 & tmp23
    tmp51 = tl.load(in_ptr0 + (2 + 2*ks3 + 2*x0 + 2*ks3*x1 + ks2*ks3*x2), tmp50 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp52 = triton_helpers.maximum(tmp49, tmp51)
    tl.store(out_ptr0 + (x3), tmp52, xmask)
