import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 131072}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_add_div_mul_slice_slice_backward_79', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 2654220}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_div_mul_slice_slice_backward_79(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = ((xindex // 2304) % 16)
    x1 = ((xindex // 96) % 24)
    x0 = (xindex % 96)
    x3 = xindex // 36864
    x6 = xindex
    tmp66 = tl.load(in_ptr1 + (x3), None, eviction_policy='evict_last')
    tmp0 = (x2).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tmp2 = tl.full([1], 1, tl.int64)
    tmp3 = tmp1 >= tmp2
    tmp4 = ((((-1) + x2) % 2)).to(tl.int64)
    tmp5 = (tmp4).to(tl.int64)
    tmp6 = tl.full([1], 0, tl.int64)
    tmp7 = tmp5 == tmp6
    tmp8 = tmp3 & tmp7
    tmp9 = (x1).to(tl.int64)
    tmp10 = (tmp9).to(tl.int64)
    tmp11 = tl.full([1], 1, tl.int64)
    tmp12 = tmp10 >= tmp11
    tmp13 = ((((-1) + x1) % 2)).to(tl.int64)
    tmp14 = (tmp13).to(tl.int64)
    tmp15 = tl.full([1], 0, tl.int64)
    tmp16 = tmp14 == tmp15
    tmp17 = tmp12 & tmp16
    tmp18 = tmp17 & tmp8
    tmp19 = tl.load(in_ptr0 + (288 + x0 + 384*(triton_helpers.div_floor_integer((-1) + x1,  2)) + 4608*(triton_helpers.div_floor_integer((-1) + x2,  2)) + 36864*x3), tmp18, other=0.0)
    tmp20 = tl.full([1], 0.0, tl.float32)
    tmp21 = tl.where(tmp17, tmp19, tmp20)
    tmp22 = tl.full(tmp21.shape, 0.0, tmp21.dtype)
    tmp23 = tl.where(tmp8, tmp21, tmp22)
    tmp24 = tl.full([1], 0.0, tl.float32)
    tmp25 = tl.where(tmp8, tmp23, tmp24)
    tmp26 = (((((x6 // 2304) % 16)) % 2)).to(tl.int64)
    tmp27 = (tmp26).to(tl.int64)
    tmp28 = tmp27 == tmp6
    tmp29 = (x1).to(tl.int64)
    tmp30 = (tmp29).to(tl.int64)
    tmp31 = tl.full([1], 1, tl.int64)
    tmp32 = tmp30 >= tmp31
    tmp33 = ((((-1) + x1) % 2)).to(tl.int64)
    tmp34 = (tmp33).to(tl.int64)
    tmp35 = tl.full([1], 0, tl.int64)
    tmp36 = tmp34 == tmp35
    tmp37 = tmp32 & tmp36
    tmp38 = tmp37 & tmp28
    tmp39 = tl.load(in_ptr0 + (192 + x0 + 384*(triton_helpers.div_floor_integer((-1) + x1,  2)) + 4608*(x2 // 2) + 36864*x3), tmp38, other=0.0)
    tmp40 = tl.full([1], 0.0, tl.float32)
    tmp41 = tl.where(tmp37, tmp39, tmp40)
    tmp42 = tl.full(tmp41.shape, 0.0, tmp41.dtype)
    tmp43 = tl.where(tmp28, tmp41, tmp42)
    tmp44 = tl.where(tmp28, tmp43, tmp24)
    tmp45 = tmp25 + tmp44
    tmp46 = (((((x6 // 96) % 24)) % 2)).to(tl.int64)
    tmp47 = (tmp46).to(tl.int64)
    tmp48 = tmp47 == tmp15
    tmp49 = tmp48 & tmp8
    tmp50 = tl.load(in_ptr0 + (96 + x0 + 384*(x1 // 2) + 4608*(triton_helpers.div_floor_integer((-1) + x2,  2)) + 36864*x3), tmp49, other=0.0)
    tmp51 = tl.where(tmp48, tmp50, tmp20)
    tmp52 = tl.full(tmp51.shape, 0.0, tmp51.dtype)
    tmp53 = tl.where(tmp8, tmp51, tmp52)
    tmp54 = tl.where(tmp8, tmp53, tmp24)
    tmp55 = tmp45 + tmp54
    tmp56 = (((((x6 // 96) % 24)) % 2)).to(tl.int64)
    tmp57 = (tmp56).to(tl.int64)
    tmp58 = tmp57 == tmp35
    tmp59 = tmp58 & tmp28
    tmp60 = tl.load(in_ptr0 + (x0 + 384*(x1 // 2) + 4608*(x2 // 2) + 36864*x3), tmp59, other=0.0)
    tmp61 = tl.where(tmp58, tmp60, tmp40)
    tmp62 = tl.full(tmp61.shape, 0.0, tmp61.dtype)
    tmp63 = tl.where(tmp28, tmp61, tmp62)
    tmp64 = tl.where(tmp28, tmp63, tmp24)
    tmp65 = tmp55 + tmp64
    tmp67 = tl.full([1], 0.9818181818181818, tl.float32)
    tmp68 = (tmp66 / tmp67)
    tmp69 = tmp65 * tmp68
    tl.store(out_ptr0 + (x6), tmp69, None)
