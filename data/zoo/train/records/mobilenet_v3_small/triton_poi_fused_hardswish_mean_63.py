import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_hardswish_mean_63', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 27648}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_hardswish_mean_63(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 288)
    x1 = xindex // 288
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 1728*x1), xmask)
    tmp9 = tl.load(in_ptr0 + (288 + x0 + 1728*x1), xmask)
    tmp16 = tl.load(in_ptr0 + (576 + x0 + 1728*x1), xmask)
    tmp23 = tl.load(in_ptr0 + (864 + x0 + 1728*x1), xmask)
    tmp30 = tl.load(in_ptr0 + (1152 + x0 + 1728*x1), xmask)
    tmp37 = tl.load(in_ptr0 + (1440 + x0 + 1728*x1), xmask)
    tmp1 = tl.full([1], 3.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0.0, tl.float32)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp5 = tl.full([1], 6.0, tl.float32)
    tmp6 = triton_helpers.minimum(tmp4, tmp5)
    tmp7 = tmp0 * tmp6
    tmp8 = (tmp7 / tmp5)
    tmp10 = tmp9 + tmp1
    tmp11 = triton_helpers.maximum(tmp10, tmp3)
    tmp12 = triton_helpers.minimum(tmp11, tmp5)
    tmp13 = tmp9 * tmp12
    tmp14 = (tmp13 / tmp5)
    tmp15 = tmp8 + tmp14
    tmp17 = tmp16 + tmp1
    tmp18 = triton_helpers.maximum(tmp17, tmp3)
    tmp19 = triton_helpers.minimum(tmp18, tmp5)
    tmp20 = tmp16 * tmp19
    tmp21 = (tmp20 / tmp5)
    tmp22 = tmp15 + tmp21
    tmp24 = tmp23 + tmp1
    tmp25 = triton_helpers.maximum(tmp24, tmp3)
    tmp26 = triton_helpers.minimum(tmp25, tmp5)
    tmp27 = tmp23 * tmp26
    tmp28 = (tmp27 / tmp5)
    tmp29 = tmp22 + tmp28
    tmp31 = tmp30 + tmp1
    tmp32 = triton_helpers.maximum(tmp31, tmp3)
    tmp33 = triton_helpers.minimum(tmp32, tmp5)
    tmp34 = tmp30 * tmp33
    tmp35 = (tmp34 / tmp5)
    tmp36 = tmp29 + tmp35
    tmp38 = tmp37 + tmp1
    tmp39 = triton_helpers.maximum(tmp38, tmp3)
    tmp40 = triton_helpers.minimum(tmp39, tmp5)
    tmp41 = tmp37 * tmp40
    tmp42 = (tmp41 / tmp5)
    tmp43 = tmp36 + tmp42
    tmp44 = (tmp43 / tmp5)
    tl.store(out_ptr0 + (x2), tmp44, xmask)
