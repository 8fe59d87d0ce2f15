import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*i1', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__native_batch_norm_legit_functional_hardtanh_mean_native_dropout_view_50', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 151040}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_hardtanh_mean_native_dropout_view_50(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    x1 = (xindex % 1280)
    x2 = xindex // 1280
    tmp5 = tl.load(in_ptr1 + (x1 + 7680*x2), xmask)
    tmp6 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr3 + (x1), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr4 + (x1), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr5 + (x1), xmask, eviction_policy='evict_last')
    tmp18 = tl.load(in_ptr1 + (1280 + x1 + 7680*x2), xmask)
    tmp26 = tl.load(in_ptr1 + (2560 + x1 + 7680*x2), xmask)
    tmp34 = tl.load(in_ptr1 + (3840 + x1 + 7680*x2), xmask)
    tmp42 = tl.load(in_ptr1 + (5120 + x1 + 7680*x2), xmask)
    tmp50 = tl.load(in_ptr1 + (6400 + x1 + 7680*x2), xmask)
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = (x0).to(tl.int32)
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tmp3 = tl.full([1], 0.2, tl.float32)
    tmp4 = tmp2 > tmp3
    tmp7 = tmp5 - tmp6
    tmp9 = tmp7 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp14 = tl.full([1], 0.0, tl.float32)
    tmp15 = triton_helpers.maximum(tmp13, tmp14)
    tmp16 = tl.full([1], 6.0, tl.float32)
    tmp17 = triton_helpers.minimum(tmp15, tmp16)
    tmp19 = tmp18 - tmp6
    tmp20 = tmp19 * tmp8
    tmp21 = tmp20 * tmp10
    tmp22 = tmp21 + tmp12
    tmp23 = triton_helpers.maximum(tmp22, tmp14)
    tmp24 = triton_helpers.minimum(tmp23, tmp16)
    tmp25 = tmp17 + tmp24
    tmp27 = tmp26 - tmp6
    tmp28 = tmp27 * tmp8
    tmp29 = tmp28 * tmp10
    tmp30 = tmp29 + tmp12
    tmp31 = triton_helpers.maximum(tmp30, tmp14)
    tmp32 = triton_helpers.minimum(tmp31, tmp16)
    tmp33 = tmp25 + tmp32
    tmp35 = tmp34 - tmp6
    tmp36 = tmp35 * tmp8
    tmp37 = tmp36 * tmp10
    tmp38 = tmp37 + tmp12
    tmp39 = triton_helpers.maximum(tmp38, tmp14)
    tmp40 = triton_helpers.minimum(tmp39, tmp16)
    tmp41 = tmp33 + tmp40
    tmp43 = tmp42 - tmp6
    tmp44 = tmp43 * tmp8
    tmp45 = tmp44 * tmp10
    tmp46 = tmp45 + tmp12
    tmp47 = triton_helpers.maximum(tmp46, tmp14)
    tmp48 = triton_helpers.minimum(tmp47, tmp16)
    tmp49 = tmp41 + tmp48
    tmp51 = tmp50 - tmp6
    tmp52 = tmp51 * tmp8
    tmp53 = tmp52 * tmp10
    tmp54 = tmp53 + tmp12
    tmp55 = triton_helpers.maximum(tmp54, tmp14)
    tmp56 = triton_helpers.minimum(tmp55, tmp16)
    tmp57 = tmp49 + tmp56
    tmp58 = (tmp57 / tmp16)
    tmp59 = tmp4.to(tl.float32)
    tmp60 = tmp59 * tmp58
    tmp61 = tl.full([1], 1.25, tl.float32)
    tmp62 = tmp60 * tmp61
    tl.store(out_ptr1 + (x0), tmp4, xmask)
    tl.store(in_out_ptr0 + (x0), tmp62, xmask)
