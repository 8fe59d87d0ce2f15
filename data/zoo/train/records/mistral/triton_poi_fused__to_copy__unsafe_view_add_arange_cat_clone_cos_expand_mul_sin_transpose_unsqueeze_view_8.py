import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'ks3': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_arange_cat_clone_cos_expand_mul_sin_transpose_unsqueeze_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 69920}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_view_add_arange_cat_clone_cos_expand_mul_sin_transpose_unsqueeze_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, ks0, ks1, ks2, ks3, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x7 = xindex
    x2 = ((xindex // 64) % ks0)
    x0 = (xindex % 16)
    x1 = ((xindex // 16) % 4)
    x3 = xindex // ks1
    x4 = ((xindex // 16) % ks0)
    x6 = ((xindex // ks2) % 2)
    x10 = xindex // ks2
    x9 = (xindex % ks3)
    tmp0 = tl.load(in_out_ptr0 + (x7), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + ((x7 % 8)), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr1 + (x0 + 16*x2 + 16*ks0*x1 + 64*ks0*x3), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr2 + (x0 + 16*x6 + 32*x4 + 32*ks0*x3), xmask, eviction_policy='evict_last')
    tmp21 = tl.load(in_ptr3 + (x9 + 16*ks0*x10), xmask, eviction_policy='evict_last')
    tmp2 = (x2).to(tl.float32)
    tmp3 = (tmp2).to(tl.float32)
    tmp4 = tmp3 * tmp1
    tmp5 = tl_math.cos(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp0 * tmp7
    tmp10 = tl_math.sin(tmp4)
    tmp11 = tmp10 * tmp6
    tmp12 = tmp9 * tmp11
    tmp13 = tmp8 + tmp12
    tmp15 = (x4).to(tl.float32)
    tmp16 = (tmp15).to(tl.float32)
    tmp17 = tmp16 * tmp1
    tmp18 = tl_math.cos(tmp17)
    tmp19 = tmp18 * tmp6
    tmp20 = tmp14 * tmp19
    tmp22 = tl_math.sin(tmp17)
    tmp23 = tmp22 * tmp6
    tmp24 = tmp21 * tmp23
    tmp25 = tmp20 + tmp24
    tl.store(in_out_ptr0 + (x7), tmp13, xmask)
    tl.store(out_ptr0 + (x7), tmp25, xmask)
