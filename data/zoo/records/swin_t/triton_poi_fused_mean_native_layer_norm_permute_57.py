import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_mean_native_layer_norm_permute_57', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 20, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 79872}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_mean_native_layer_norm_permute_57(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 768)
    x1 = xindex // 768
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 4608*x1), xmask)
    tmp1 = tl.load(in_ptr1 + (6*x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (6*x1), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr0 + (768 + x0 + 4608*x1), xmask)
    tmp15 = tl.load(in_ptr1 + (1 + 6*x1), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr2 + (1 + 6*x1), xmask, eviction_policy='evict_last')
    tmp25 = tl.load(in_ptr0 + (1536 + x0 + 4608*x1), xmask)
    tmp26 = tl.load(in_ptr1 + (2 + 6*x1), xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr2 + (2 + 6*x1), xmask, eviction_policy='evict_last')
    tmp36 = tl.load(in_ptr0 + (2304 + x0 + 4608*x1), xmask)
    tmp37 = tl.load(in_ptr1 + (3 + 6*x1), xmask, eviction_policy='evict_last')
    tmp39 = tl.load(in_ptr2 + (3 + 6*x1), xmask, eviction_policy='evict_last')
    tmp47 = tl.load(in_ptr0 + (3072 + x0 + 4608*x1), xmask)
    tmp48 = tl.load(in_ptr1 + (4 + 6*x1), xmask, eviction_policy='evict_last')
    tmp50 = tl.load(in_ptr2 + (4 + 6*x1), xmask, eviction_policy='evict_last')
    tmp58 = tl.load(in_ptr0 + (3840 + x0 + 4608*x1), xmask)
    tmp59 = tl.load(in_ptr1 + (5 + 6*x1), xmask, eviction_policy='evict_last')
    tmp61 = tl.load(in_ptr2 + (5 + 6*x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 768.0, tl.float32)
    tmp5 = (tmp3 / tmp4)
    tmp6 = tl.full([1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp16 = tmp14 - tmp15
    tmp18 = (tmp17 / tmp4)
    tmp19 = tmp18 + tmp6
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp16 * tmp20
    tmp22 = tmp21 * tmp10
    tmp23 = tmp22 + tmp12
    tmp24 = tmp13 + tmp23
    tmp27 = tmp25 - tmp26
    tmp29 = (tmp28 / tmp4)
    tmp30 = tmp29 + tmp6
    tmp31 = libdevice.rsqrt(tmp30)
    tmp32 = tmp27 * tmp31
    tmp33 = tmp32 * tmp10
    tmp34 = tmp33 + tmp12
    tmp35 = tmp24 + tmp34
    tmp38 = tmp36 - tmp37
    tmp40 = (tmp39 / tmp4)
    tmp41 = tmp40 + tmp6
    tmp42 = libdevice.rsqrt(tmp41)
    tmp43 = tmp38 * tmp42
    tmp44 = tmp43 * tmp10
    tmp45 = tmp44 + tmp12
    tmp46 = tmp35 + tmp45
    tmp49 = tmp47 - tmp48
    tmp51 = (tmp50 / tmp4)
    tmp52 = tmp51 + tmp6
    tmp53 = libdevice.rsqrt(tmp52)
    tmp54 = tmp49 * tmp53
    tmp55 = tmp54 * tmp10
    tmp56 = tmp55 + tmp12
    tmp57 = tmp46 + tmp56
    tmp60 = tmp58 - tmp59
    tmp62 = (tmp61 / tmp4)
    tmp63 = tmp62 + tmp6
    tmp64 = libdevice.rsqrt(tmp63)
    tmp65 = tmp60 * tmp64
    tmp66 = tmp65 * tmp10
    tmp67 = tmp66 + tmp12
    tmp68 = tmp57 + tmp67
    tmp69 = tl.full([1], 6.0, tl.float32)
    tmp70 = (tmp68 / tmp69)
    tl.store(out_ptr0 + (x2), tmp70, xmask)
