import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 131072}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i8', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_max_pool2d_with_indices_relu_8', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 4080384}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_max_pool2d_with_indices_relu_8(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 96)
    x1 = ((xindex // 96) % 22)
    x2 = ((xindex // 2112) % 14)
    x3 = xindex // 29568
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp3 = tl.load(in_ptr0 + (96 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp6 = tl.load(in_ptr0 + (192 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp9 = tl.load(in_ptr0 + (4320 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp12 = tl.load(in_ptr0 + (4416 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp15 = tl.load(in_ptr0 + (4512 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp18 = tl.load(in_ptr0 + (8640 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp21 = tl.load(in_ptr0 + (8736 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp24 = tl.load(in_ptr0 + (8832 + x0 + 192*x1 + 8640*x2 + 125280*x3), xmask)
    tmp1 = tl.full([1], 0, tl.int32)
    tmp2 = triton_helpers.maximum(tmp1, tmp0)
    tmp4 = triton_helpers.maximum(tmp1, tmp3)
    tmp5 = triton_helpers.maximum(tmp2, tmp4)
    tmp7 = triton_helpers.maximum(tmp1, tmp6)
    tmp8 = triton_helpers.maximum(tmp5, tmp7)
    tmp10 = triton_helpers.maximum(tmp1, tmp9)
    tmp11 = triton_helpers.maximum(tmp8, tmp10)
    tmp13 = triton_helpers.maximum(tmp1, tmp12)
    tmp14 = triton_helpers.maximum(tmp11, tmp13)
    tmp16 = triton_helpers.maximum(tmp1, tmp15)
    tmp17 = triton_helpers.maximum(tmp14, tmp16)
    tmp19 = triton_helpers.maximum(tmp1, tmp18)
    tmp20 = triton_helpers.maximum(tmp17, tmp19)
    tmp22 = triton_helpers.maximum(tmp1, tmp21)
    tmp23 = triton_helpers.maximum(tmp20, tmp22)
    tmp25 = triton_helpers.maximum(tmp1, tmp24)
    tmp26 = triton_helpers.maximum(tmp23, tmp25)
    tmp27 = tmp2 > tmp4
    tmp28 = tmp2 == tmp4
    tmp29 = tmp2 != tmp2
    tmp30 = tmp4 != tmp4
    tmp31 = tmp29 > tmp30
    tmp32 = tmp27 | tmp31
    tmp33 = tmp29 & tmp30
    tmp34 = tmp28 | tmp33
    tmp35 = tl.full([1], 0, tl.int64)
    tmp36 = tl.full([1], 1, tl.int64)
    tmp37 = tmp35 < tmp36
    tmp38 = tmp34 & tmp37
    tmp39 = tmp32 | tmp38
    tmp40 = tl.where(tmp39, tmp2, tmp4)
    tmp41 = tl.where(tmp39, tmp35, tmp36)
    tmp42 = tmp40 > tmp7
    tmp43 = tmp40 == tmp7
    tmp44 = tmp40 != tmp40
    tmp45 = tmp7 != tmp7
    tmp46 = tmp44 > tmp45
    tmp47 = tmp42 | tmp46
    tmp48 = tmp44 & tmp45
    tmp49 = tmp43 | tmp48
    tmp50 = tl.full([1], 2, tl.int64)
    tmp51 = tmp41 < tmp50
    tmp52 = tmp49 & tmp51
    tmp53 = tmp47 | tmp52
    tmp54 = tl.where(tmp53, tmp40, tmp7)
    tmp55 = tl.where(tmp53, tmp41, tmp50)
    tmp56 = tmp54 > tmp10
    tmp57 = tmp54 == tmp10
    tmp58 = tmp54 != tmp54
    tmp59 = tmp10 != tmp10
    tmp60 = tmp58 > tmp59
    tmp61 = tmp56 | tmp60
    tmp62 = tmp58 & tmp59
    tmp63 = tmp57 | tmp62
    tmp64 = tl.full([1], 3, tl.int64)
    tmp65 = tmp55 < tmp64
    tmp66 = tmp63 & tmp65
    tmp67 = tmp61 | tmp66
    tmp68 = tl.where(tmp67, tmp54, tmp10)
    tmp69 = tl.where(tmp67, tmp55, tmp64)
    tmp70 = tmp68 > tmp13
    tmp71 = tmp68 == tmp13
    tmp72 = tmp68 != tmp68
    tmp73 = tmp13 != tmp13
    tmp74 = tmp72 > tmp73
    tmp75 = tmp70 | tmp74
    tmp76 = tmp72 & tmp73
    tmp77 = tmp71 | tmp76
    tmp78 = tl.full([1], 4, tl.int64)
    tmp79 = tmp69 < tmp78
    tmp80 = tmp77 & tmp79
    tmp81 = tmp75 | tmp80
    tmp82 = tl.where(tmp81, tmp68, tmp13)
    tmp83 = tl.where(tmp81, tmp69, tmp78)
    tmp84 = tmp82 > tmp16
    tmp85 = tmp82 == tmp16
    tmp86 = tmp82 != tmp82
    tmp87 = tmp16 != tmp16
    tmp88 = tmp86 > tmp87
    tmp89 = tmp84 | tmp88
    tmp90 = tmp86 & tmp87
    tmp91 = tmp85 | tmp90
    tmp92 = tl.full([1], 5, tl.int64)
    tmp93 = tmp83 < tmp92
    tmp94 = tmp91 & tmp93
    tmp95 = tmp89 | tmp94
    tmp96 = tl.where(tmp95, tmp82, tmp16)
    tmp97 = tl.where(tmp95, tmp83, tmp92)
    tmp98 = tmp96 > tmp19
    tmp99 = tmp96 == tmp19
    tmp100 = tmp96 != tmp96
    tmp101 = tmp19 != tmp19
    tmp102 = tmp100 > tmp101
    tmp103 = tmp98 | tmp102
    tmp104 = tmp100 & tmp101
    tmp105 = tmp99 | tmp104
    tmp106 = tl.full([1], 6, tl.int64)
    tmp107 = tmp97 < tmp106
    tmp108 = tmp105 & tmp107
    tmp109 = tmp103 | tmp108
    tmp110 = tl.where(tmp109, tmp96, tmp19)
    tmp111 = tl.where(tmp109, tmp97, tmp106)
    tmp112 = tmp110 > tmp22
    tmp113 = tmp110 == tmp22
    tmp114 = tmp110 != tmp110
    tmp115 = tmp22 != tmp22
    tmp116 = tmp114 > tmp115
    tmp117 = tmp112 | tmp116
    tmp118 = tmp114 & tmp115
    tmp119 = tmp113 | tmp118
    tmp120 = tl.full([1], 7, tl.int64)
    tmp121 = tmp111 < tmp120
    tmp122 = tmp119 & tmp121
    tmp123 = tmp117 | tmp122
    tmp124 = tl.where(tmp123, tmp110, tmp22)
    tmp125 = tl.where(tmp123, tmp111, tmp120)
    tmp126 = tmp124 > tmp25
    tmp127 = tmp124 == tmp25
    tmp128 = tmp124 != tmp124
    tmp129 = tmp25 != tmp25
    tmp130 = tmp128 > tmp129
    tmp131 = tmp126 | tmp130
    tmp132 = tmp128 & tmp129
    tmp133 = tmp127 | tmp132
    tmp134 = tl.full([1], 8, tl.int64)
    tmp135 = tmp125 < tmp134
    tmp136 = tmp133 & tmp135
    tmp137 = tmp131 | tmp136
    tmp138 = tl.where(tmp137, tmp124, tmp25)
    tmp139 = tl.where(tmp137, tmp125, tmp134)
    tmp140 = tmp139.to(tl.int8)
    tl.store(out_ptr0 + (x4), tmp26, xmask)
    tl.store(out_ptr1 + (x4), tmp140, xmask)
