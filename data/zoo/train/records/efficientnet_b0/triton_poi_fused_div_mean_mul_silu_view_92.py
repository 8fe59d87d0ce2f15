import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_div_mean_mul_silu_view_92', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 122880}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_div_mean_mul_silu_view_92(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 1280)
    x1 = xindex // 1280
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 7680*x1), xmask)
    tmp6 = tl.load(in_ptr0 + (1280 + x0 + 7680*x1), xmask)
    tmp12 = tl.load(in_ptr0 + (2560 + x0 + 7680*x1), xmask)
    tmp18 = tl.load(in_ptr0 + (3840 + x0 + 7680*x1), xmask)
    tmp24 = tl.load(in_ptr0 + (5120 + x0 + 7680*x1), xmask)
    tmp30 = tl.load(in_ptr0 + (6400 + x0 + 7680*x1), xmask)
    tmp38 = tl.load(in_ptr1 + (x2), xmask)
    tmp1 = -tmp0
    tmp2 = libdevice.exp(tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = (tmp0 / tmp4)
    tmp7 = -tmp6
    tmp8 = libdevice.exp(tmp7)
    tmp9 = tmp8 + tmp3
    tmp10 = (tmp6 / tmp9)
    tmp11 = tmp5 + tmp10
    tmp13 = -tmp12
    tmp14 = libdevice.exp(tmp13)
    tmp15 = tmp14 + tmp3
    tmp16 = (tmp12 / tmp15)
    tmp17 = tmp11 + tmp16
    tmp19 = -tmp18
    tmp20 = libdevice.exp(tmp19)
    tmp21 = tmp20 + tmp3
    tmp22 = (tmp18 / tmp21)
    tmp23 = tmp17 + tmp22
    tmp25 = -tmp24
    tmp26 = libdevice.exp(tmp25)
    tmp27 = tmp26 + tmp3
    tmp28 = (tmp24 / tmp27)
    tmp29 = tmp23 + tmp28
    tmp31 = -tmp30
    tmp32 = libdevice.exp(tmp31)
    tmp33 = tmp32 + tmp3
    tmp34 = (tmp30 / tmp33)
    tmp35 = tmp29 + tmp34
    tmp36 = tl.full([1], 6.0, tl.float32)
    tmp37 = (tmp35 / tmp36)
    tmp39 = tl.full([1], 0.8, tl.float32)
    tmp40 = (tmp38 / tmp39)
    tmp41 = tmp37 * tmp40
    tl.store(out_ptr0 + (x2), tmp41, xmask)
