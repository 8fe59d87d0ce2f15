import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'y': 2048, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i8', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_max_pool2d_with_indices_22', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 230400, 'x': 0}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_max_pool2d_with_indices_22(in_ptr0, out_ptr0, out_ptr1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    xnumel = 15
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = (xindex % 5)
    x3 = xindex // 5
    y4 = yindex
    x5 = xindex
    y0 = (yindex % 512)
    y1 = yindex // 512
    tmp0 = tl.load(in_ptr0 + (2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (2 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (11 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr0 + (12 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr0 + (13 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr0 + (22 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr0 + (23 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr0 + (24 + 2*x2 + 22*x3 + 77*y4), xmask & ymask, eviction_policy='evict_last')
    tmp2 = triton_helpers.maximum(tmp0, tmp1)
    tmp4 = triton_helpers.maximum(tmp2, tmp3)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp10 = triton_helpers.maximum(tmp8, tmp9)
    tmp12 = triton_helpers.maximum(tmp10, tmp11)
    tmp14 = triton_helpers.maximum(tmp12, tmp13)
    tmp16 = triton_helpers.maximum(tmp14, tmp15)
    tmp17 = tmp0 > tmp1
    tmp18 = tmp0 == tmp1
    tmp19 = tmp0 != tmp0
    tmp20 = tmp1 != tmp1
    tmp21 = tmp19 > tmp20
    tmp22 = tmp17 | tmp21
    tmp23 = tmp19 & tmp20
    tmp24 = tmp18 | tmp23
    tmp25 = tl.full([1, 1], 0, tl.int64)
    tmp26 = tl.full([1, 1], 1, tl.int64)
    tmp27 = tmp25 < tmp26
    tmp28 = tmp24 & tmp27
    tmp29 = tmp22 | tmp28
    tmp30 = tl.where(tmp29, tmp0, tmp1)
    tmp31 = tl.where(tmp29, tmp25, tmp26)
    tmp32 = tmp30 > tmp3
    tmp33 = tmp30 == tmp3
    tmp34 = tmp30 != tmp30
    tmp35 = tmp3 != tmp3
    tmp36 = tmp34 > tmp35
    tmp37 = tmp32 | tmp36
    tmp38 = tmp34 & tmp35
    tmp39 = tmp33 | tmp38
    tmp40 = tl.full([1, 1], 2, tl.int64)
    tmp41 = tmp31 < tmp40
    tmp42 = tmp39 & tmp41
    tmp43 = tmp37 | tmp42
    tmp44 = tl.where(tmp43, tmp30, tmp3)
    tmp45 = tl.where(tmp43, tmp31, tmp40)
    tmp46 = tmp44 > tmp5
    tmp47 = tmp44 == tmp5
    tmp48 = tmp44 != tmp44
    tmp49 = tmp5 != tmp5
    tmp50 = tmp48 > tmp49
    tmp51 = tmp46 | tmp50
    tmp52 = tmp48 & tmp49
    tmp53 = tmp47 | tmp52
    tmp54 = tl.full([1, 1], 3, tl.int64)
    tmp55 = tmp45 < tmp54
    tmp56 = tmp53 & tmp55
    tmp57 = tmp51 | tmp56
    tmp58 = tl.where(tmp57, tmp44, tmp5)
    tmp59 = tl.where(tmp57, tmp45, tmp54)
    tmp60 = tmp58 > tmp7
    tmp61 = tmp58 == tmp7
    tmp62 = tmp58 != tmp58
    tmp63 = tmp7 != tmp7
    tmp64 = tmp62 > tmp63
    tmp65 = tmp60 | tmp64
    tmp66 = tmp62 & tmp63
    tmp67 = tmp61 | tmp66
    tmp68 = tl.full([1, 1], 4, tl.int64)
    tmp69 = tmp59 < tmp68
    tmp70 = tmp67 & tmp69
    tmp71 = tmp65 | tmp70
    tmp72 = tl.where(tmp71, tmp58, tmp7)
    tmp73 = tl.where(tmp71, tmp59, tmp68)
    tmp74 = tmp72 > tmp9
    tmp75 = tmp72 == tmp9
    tmp76 = tmp72 != tmp72
    tmp77 = tmp9 != tmp9
    tmp78 = tmp76 > tmp77
    tmp79 = tmp74 | tmp78
    tmp80 = tmp76 & tmp77
    tmp81 = tmp75 | tmp80
    tmp82 = tl.full([1, 1], 5, tl.int64)
    tmp83 = tmp73 < tmp82
    tmp84 = tmp81 & tmp83
    tmp85 = tmp79 | tmp84
    tmp86 = tl.where(tmp85, tmp72, tmp9)
    tmp87 = tl.where(tmp85, tmp73, tmp82)
    tmp88 = tmp86 > tmp11
    tmp89 = tmp86 == tmp11
    tmp90 = tmp86 != tmp86
    tmp91 = tmp11 != tmp11
    tmp92 = tmp90 > tmp91
    tmp93 = tmp88 | tmp92
    tmp94 = tmp90 & tmp91
    tmp95 = tmp89 | tmp94
    tmp96 = tl.full([1, 1], 6, tl.int64)
    tmp97 = tmp87 < tmp96
    tmp98 = tmp95 & tmp97
    tmp99 = tmp93 | tmp98
    tmp100 = tl.where(tmp99, tmp86, tmp11)
    tmp101 = tl.where(tmp99, tmp87, tmp96)
    tmp102 = tmp100 > tmp13
    tmp103 = tmp100 == tmp13
    tmp104 = tmp100 != tmp100
    tmp105 = tmp13 != tmp13
    tmp106 = tmp104 > tmp105
    tmp107 = tmp102 | tmp106
    tmp108 = tmp104 & tmp105
    tmp109 = tmp103 | tmp108
    tmp110 = tl.full([1, 1], 7, tl.int64)
    tmp111 = tmp101 < tmp110
    tmp112 = tmp109 & tmp111
    tmp113 = tmp107 | tmp112
    tmp114 = tl.where(tmp113, tmp100, tmp13)
    tmp115 = tl.where(tmp113, tmp101, tmp110)
    tmp116 = tmp114 > tmp15
    tmp117 = tmp114 == tmp15
    tmp118 = tmp114 != tmp114
    tmp119 = tmp15 != tmp15
    tmp120 = tmp118 > tmp119
    tmp121 = tmp116 | tmp120
    tmp122 = tmp118 & tmp119
    tmp123 = tmp117 | tmp122
    tmp124 = tl.full([1, 1], 8, tl.int64)
    tmp125 = tmp115 < tmp124
    tmp126 = tmp123 & tmp125
    tmp127 = tmp121 | tmp126
    tmp128 = tl.where(tmp127, tmp114, tmp15)
    tmp129 = tl.where(tmp127, tmp115, tmp124)
    tmp130 = tmp129.to(tl.int8)
    tl.store(out_ptr0 + (y0 + 512*x5 + 7680*y1), tmp16, xmask & ymask)
    tl.store(out_ptr1 + (y0 + 512*x5 + 7680*y1), tmp130, xmask & ymask)
