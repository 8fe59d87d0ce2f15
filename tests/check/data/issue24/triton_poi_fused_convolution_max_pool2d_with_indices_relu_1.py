import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 512, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'kernel_name': 'triton_poi_fused_convolution_max_pool2d_with_indices_relu_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 3193344, 'x': 709632}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_max_pool2d_with_indices_relu_1(in_ptr0, out_ptr0, ks0, ks1, ks2, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = (xindex % ks0)
    x2 = xindex // ks0
    y0 = yindex
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (2 + y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (1 + y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + (triton_helpers.div_floor_integer((-7) + ks1,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr0 + (2 + y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + (triton_helpers.div_floor_integer((-7) + ks1,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr0 + (3 + y0 + 2*x1 + 2*x2 + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + (triton_helpers.div_floor_integer((-7) + ks1,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr0 + (2 + y0 + 2*x1 + 2*x2 + 2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr0 + (3 + y0 + 2*x1 + 2*x2 + 2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr0 + (4 + y0 + 2*x1 + 2*x2 + 2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks2,  2)) + 2*x2*(triton_helpers.div_floor_integer((-7) + ks1,  2)) + y0*(triton_helpers.div_floor_integer((-7) + ks1,  2))*(triton_helpers.div_floor_integer((-7) + ks2,  2))), xmask & ymask, eviction_policy='evict_last')
    tmp2 = triton_helpers.maximum(tmp0, tmp1)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp10 = triton_helpers.maximum(tmp8, tmp9)
    tmp12 = triton_helpers.maximum(tmp10, tmp11)
    tmp14 = triton_helpers.maximum(tmp12, tmp13)
    tmp16 = triton_helpers.maximum(tmp14, tmp15)
    tl.store(out_ptr0 + (x3 + ks0*y0*(triton_helpers.div_floor_integer((-7) + ks2,  4))), tmp16, xmask & ymask)
