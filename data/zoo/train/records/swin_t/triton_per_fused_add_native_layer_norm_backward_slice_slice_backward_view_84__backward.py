import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_backward_slice_slice_backward_view_84', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 4608, 'r0_': 3539328}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_backward_slice_slice_backward_view_84(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 96
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    x3 = ((xindex // 24) % 16)
    x2 = (xindex % 24)
    x4 = xindex // 384
    tmp0 = tl.load(in_ptr0 + (r0_1 + 96*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp7 = tl.load(in_ptr2 + (r0_1 + 96*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp79 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp8 = tmp2 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask & xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = (x3).to(tl.int64)
    tmp14 = (tmp13).to(tl.int64)
    tmp15 = tl.full([1, 1], 1, tl.int64)
    tmp16 = tmp14 >= tmp15
    tmp17 = ((((-1) + x3) % 2)).to(tl.int64)
    tmp18 = (tmp17).to(tl.int64)
    tmp19 = tl.full([1, 1], 0, tl.int64)
    tmp20 = tmp18 == tmp19
    tmp21 = tmp16 & tmp20
    tmp22 = (tl.broadcast_to(x2, [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp23 = (tmp22).to(tl.int64)
    tmp24 = tl.full([1, 1], 1, tl.int64)
    tmp25 = tmp23 >= tmp24
    tmp26 = (tl.broadcast_to((((-1) + x2) % 2), [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp27 = (tmp26).to(tl.int64)
    tmp28 = tl.full([1, 1], 0, tl.int64)
    tmp29 = tmp27 == tmp28
    tmp30 = tmp25 & tmp29
    tmp31 = tmp30 & tmp21
    tmp32 = tl.load(in_ptr3 + (288 + r0_1 + 384*(triton_helpers.div_floor_integer((-1) + x2,  2)) + 4608*(triton_helpers.div_floor_integer((-1) + x3,  2)) + 36864*x4), r0_mask & tmp31 & xmask, eviction_policy='evict_last', other=0.0)
    tmp33 = tl.full([1, 1], 0.0, tl.float32)
    tmp34 = tl.where(tmp30, tmp32, tmp33)
    tmp35 = tl.full(tmp34.shape, 0.0, tmp34.dtype)
    tmp36 = tl.where(tmp21, tmp34, tmp35)
    tmp37 = tl.full([1, 1], 0.0, tl.float32)
    tmp38 = tl.where(tmp21, tmp36, tmp37)
    tmp39 = (((((x0 // 24) % 16)) % 2)).to(tl.int64)
    tmp40 = (tmp39).to(tl.int64)
    tmp41 = tmp40 == tmp19
    tmp42 = (tl.broadcast_to(x2, [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp43 = (tmp42).to(tl.int64)
    tmp44 = tl.full([1, 1], 1, tl.int64)
    tmp45 = tmp43 >= tmp44
    tmp46 = (tl.broadcast_to((((-1) + x2) % 2), [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp47 = (tmp46).to(tl.int64)
    tmp48 = tl.full([1, 1], 0, tl.int64)
    tmp49 = tmp47 == tmp48
    tmp50 = tmp45 & tmp49
    tmp51 = tmp50 & tmp41
    tmp52 = tl.load(in_ptr3 + (192 + r0_1 + 384*(triton_helpers.div_floor_integer((-1) + x2,  2)) + 4608*(x3 // 2) + 36864*x4), r0_mask & tmp51 & xmask, eviction_policy='evict_last', other=0.0)
    tmp53 = tl.full([1, 1], 0.0, tl.float32)
    tmp54 = tl.where(tmp50, tmp52, tmp53)
    tmp55 = tl.full(tmp54.shape, 0.0, tmp54.dtype)
    tmp56 = tl.where(tmp41, tmp54, tmp55)
    tmp57 = tl.where(tmp41, tmp56, tmp37)
    tmp58 = tmp38 + tmp57
    tmp59 = (tl.broadcast_to((x0 % 2), [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp60 = (tmp59).to(tl.int64)
    tmp61 = tmp60 == tmp28
    tmp62 = tmp61 & tmp21
    tmp63 = tl.load(in_ptr3 + (96 + r0_1 + 384*(x2 // 2) + 4608*(triton_helpers.div_floor_integer((-1) + x3,  2)) + 36864*x4), r0_mask & tmp62 & xmask, eviction_policy='evict_last', other=0.0)
    tmp64 = tl.where(tmp61, tmp63, tmp33)
    tmp65 = tl.full(tmp64.shape, 0.0, tmp64.dtype)
    tmp66 = tl.where(tmp21, tmp64, tmp65)
    tmp67 = tl.where(tmp21, tmp66, tmp37)
    tmp68 = tmp58 + tmp67
    tmp69 = (tl.broadcast_to((x0 % 2), [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp70 = (tmp69).to(tl.int64)
    tmp71 = tmp70 == tmp48
    tmp72 = tmp71 & tmp41
    tmp73 = tl.load(in_ptr3 + (r0_1 + 384*(x2 // 2) + 4608*(x3 // 2) + 36864*x4), r0_mask & tmp72 & xmask, eviction_policy='evict_first', other=0.0)
    tmp74 = tl.where(tmp71, tmp73, tmp53)
    tmp75 = tl.full(tmp74.shape, 0.0, tmp74.dtype)
    tmp76 = tl.where(tmp41, tmp74, tmp75)
    tmp77 = tl.where(tmp41, tmp76, tmp37)
    tmp78 = tmp68 + tmp77
    tmp80 = tl.full([1, 1], 96.0, tl.float32)
    tmp81 = tmp2 * tmp80
    tmp82 = tmp81 - tmp6
    tmp83 = tmp7 * tmp12
    tmp84 = tmp82 - tmp83
    tmp85 = tmp79 * tmp84
    tmp86 = tmp78 + tmp85
    tl.store(out_ptr2 + (r0_1 + 96*x0), tmp86, r0_mask & xmask)
