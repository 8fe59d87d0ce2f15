import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__native_batch_norm_legit_no_training_cat_clone_relu_split_transpose_view_16', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 11, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 111360}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__native_batch_norm_legit_no_training_cat_clone_relu_split_transpose_view_16(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 24) % 96)
    x0 = (xindex % 24)
    x2 = xindex // 2304
    x3 = xindex
    tmp0 = (x1).to(tl.int32)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = (x1).to(tl.int64)
    tmp4 = (tmp3).to(tl.int64)
    tmp5 = tl.full([1], 48, tl.int64)
    tmp6 = tmp4 < tmp5
    tmp7 = (48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))).to(tl.int32)
    tmp8 = tl.full([1], 0, tl.int64)
    tmp9 = tmp7 >= tmp8
    tmp10 = (48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))).to(tl.int64)
    tmp11 = (tmp10).to(tl.int64)
    tmp12 = tl.full([1], 48, tl.int64)
    tmp13 = tmp11 < tmp12
    tmp14 = tmp13 & tmp6
    tmp15 = tl.load(in_ptr0 + (x0 + 24*(triton_helpers.div_floor_integer(48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2)),  2)) + 1152*(((48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))) % 2)) + 2304*x2), tmp14 & xmask, other=0.0)
    tmp16 = tmp7 >= tmp12
    tmp17 = tl.full([1], 96, tl.int64)
    tmp18 = tmp7 < tmp17
    tmp19 = tmp16 & tmp6
    tmp20 = tl.load(in_ptr1 + (x0 + 24*((-48) + 48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))) + 1152*x2), tmp19 & xmask, other=0.0)
    tmp21 = tl.load(in_ptr2 + ((-48) + 48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))), tmp19 & xmask, eviction_policy='evict_last', other=0.0)
    tmp22 = tmp20 - tmp21
    tmp23 = tl.load(in_ptr3 + ((-48) + 48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))), tmp19 & xmask, eviction_policy='evict_last', other=0.0)
    tmp24 = tl.full([1], 1e-05, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = tl.sqrt_rn(tmp25)
    tmp27 = tl.full([1], 1.0, tl.float32)
    tmp28 = (tmp27 / tmp26)
    tmp29 = tmp28 * tmp27
    tmp30 = tmp22 * tmp29
    tmp31 = tl.load(in_ptr4 + ((-48) + 48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))), tmp19 & xmask, eviction_policy='evict_last', other=0.0)
    tmp32 = tmp30 * tmp31
    tmp33 = tl.load(in_ptr5 + ((-48) + 48*(((x1) % 2)) + (triton_helpers.div_floor_integer(x1,  2))), tmp19 & xmask, eviction_policy='evict_last', other=0.0)
    tmp34 = tmp32 + tmp33
    tmp35 = tl.full([1], 0, tl.int32)
    tmp36 = triton_helpers.maximum(tmp35, tmp34)
    tmp37 = tl.full(tmp36.shape, 0.0, tmp36.dtype)
    tmp38 = tl.where(tmp19, tmp36, tmp37)
    tmp39 = tl.where(tmp13, tmp15, tmp38)
    tmp40 = tl.full(tmp39.shape, 0.0, tmp39.dtype)
    tmp41 = tl.where(tmp6, tmp39, tmp40)
    tmp42 = tmp0 >= tmp5
    tmp43 = tl.full([1], 96, tl.int64)
    tmp44 = tmp0 < tmp43
    tmp45 = tl.load(in_ptr6 + (x0 + 24*((-48) + x1) + 1152*x2), tmp42 & xmask, other=0.0)
    tmp46 = tl.load(in_ptr7 + ((-48) + x1), tmp42 & xmask, eviction_policy='evict_last', other=0.0)
    tmp47 = tmp45 - tmp46
    tmp48 = tl.load(in_ptr8 + ((-48) + x1), tmp42 & xmask, eviction_policy='evict_last', other=0.0)
    tmp49 = tl.full([1], 1e-05, tl.float32)
    tmp50 = tmp48 + tmp49
    tmp51 = tl.sqrt_rn(tmp50)
    tmp52 = tl.full([1], 1.0, tl.float32)
    tmp53 = (tmp52 / tmp51)
    tmp54 = tmp53 * tmp52
    tmp55 = tmp47 * tmp54
    tmp56 = tl.load(in_ptr9 + ((-48) + x1), tmp42 & xmask, eviction_policy='evict_last', other=0.0)
    tmp57 = tmp55 * tmp56
    tmp58 = tl.load(in_ptr10 + ((-48) + x1), tmp42 & xmask, eviction_policy='evict_last', other=0.0)
    tmp59 = tmp57 + tmp58
    tmp60 = tl.full([1], 0, tl.int32)
    tmp61 = triton_helpers.maximum(tmp60, tmp59)
    tmp62 = tl.full(tmp61.shape, 0.0, tmp61.dtype)
    tmp63 = tl.where(tmp42, tmp61, tmp62)
    tmp64 = tl.where(tmp6, tmp41, tmp63)
    tl.store(out_ptr0 + (x3), tmp64, xmask)
