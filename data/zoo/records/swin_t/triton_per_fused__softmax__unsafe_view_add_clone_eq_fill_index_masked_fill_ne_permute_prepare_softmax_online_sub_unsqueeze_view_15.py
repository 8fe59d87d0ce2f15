import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8192, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused__softmax__unsafe_view_add_clone_eq_fill_index_masked_fill_ne_permute_prepare_softmax_online_sub_unsqueeze_view_15', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 4, 'autotune_hints': set(), 'tiling_scores': {'x': 2352, 'r0_': 3133256}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused__softmax__unsafe_view_add_clone_eq_fill_index_masked_fill_ne_permute_prepare_softmax_online_sub_unsqueeze_view_15(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 49
    R0_BLOCK: tl.constexpr = 64
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
    r0_4 = r0_index
    x5 = xindex
    x0 = (xindex % 49)
    x1 = ((xindex // 49) % 3)
    x2 = ((xindex // 147) % 12)
    tmp0 = tl.load(in_out_ptr0 + (r0_4 + 49*x5), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_4 + 49*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp25 = tl.load(in_ptr2 + (7*((x2 % 4)) + 28*(r0_4 // 7) + 196*(x2 // 4) + ((r0_4 % 7))), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp42 = tl.load(in_ptr2 + (7*((x2 % 4)) + 28*(x0 // 7) + 196*(x2 // 4) + ((x0 % 7))), xmask, eviction_policy='evict_last')
    tmp2 = (tl.full([1, 1], 169, tl.int32)).to(tl.int32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp1 < 0
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tl.device_assert(((0 <= tmp5) & (tmp5 < 169)) | ~(r0_mask & xmask), "index out of bounds: 0 <= tmp5 < 169")
    tmp7 = tl.load(in_ptr1 + (x1 + 3*tmp5), r0_mask & xmask, eviction_policy='evict_last')
    tmp8 = tmp0 + tmp7
    tmp9 = (7*(x2 // 4) + (r0_4 // 7)).to(tl.int64)
    tmp10 = (tmp9).to(tl.int64)
    tmp11 = tl.full([1, 1], 18, tl.int64)
    tmp12 = tmp10 >= tmp11
    tmp13 = (7*((x2 % 4)) + ((r0_4 % 7))).to(tl.int64)
    tmp14 = (tmp13).to(tl.int64)
    tmp15 = tl.full([1, 1], 25, tl.int64)
    tmp16 = tmp14 >= tmp15
    tmp17 = tmp16 & tmp12
    tmp18 = tl.full([1, 1], 8.0, tl.float32)
    tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = tl.load(in_ptr2 + (7*((x2 % 4)) + 28*(r0_4 // 7) + 196*(x2 // 4) + ((r0_4 % 7))), r0_mask & tmp12 & xmask, eviction_policy='evict_last', other=0.0)
    tmp22 = tl.where(tmp16, tmp20, tmp21)
    tmp23 = tl.full(tmp22.shape, 0.0, tmp22.dtype)
    tmp24 = tl.where(tmp12, tmp22, tmp23)
    tmp26 = tl.where(tmp12, tmp24, tmp25)
    tmp27 = (7*(x2 // 4) + (x0 // 7)).to(tl.int64)
    tmp28 = (tmp27).to(tl.int64)
    tmp29 = tmp28 >= tmp11
    tmp30 = (tl.broadcast_to(7*((x2 % 4)) + ((x0 % 7)), [XBLOCK, R0_BLOCK])).to(tl.int64)
    tmp31 = (tmp30).to(tl.int64)
    tmp32 = tl.full([1, 1], 25, tl.int64)
    tmp33 = tmp31 >= tmp32
    tmp34 = tmp33 & tmp29
    tmp35 = tl.full([1, 1], 8.0, tl.float32)
    tmp36 = tl.full(tmp35.shape, 0.0, tmp35.dtype)
    tmp37 = tl.where(tmp34, tmp35, tmp36)
    tmp38 = tl.load(in_ptr2 + (tl.broadcast_to(7*((x2 % 4)) + 28*(x0 // 7) + 196*(x2 // 4) + ((x0 % 7)), [XBLOCK, R0_BLOCK])), r0_mask & tmp29 & xmask, eviction_policy='evict_last', other=0.0)
    tmp39 = tl.where(tmp33, tmp37, tmp38)
    tmp40 = tl.full(tmp39.shape, 0.0, tmp39.dtype)
    tmp41 = tl.where(tmp29, tmp39, tmp40)
    tmp43 = tl.where(tmp29, tmp41, tmp42)
    tmp44 = tmp26 - tmp43
    tmp45 = tl.full([1, 1], 0.0, tl.float32)
    tmp46 = tmp44 == tmp45
    tmp47 = tmp44 != tmp45
    tmp48 = tl.full([1, 1], -100.0, tl.float32)
    tmp49 = tl.where(tmp47, tmp48, tmp44)
    tmp50 = tl.where(tmp46, tmp45, tmp49)
    tmp51 = tmp8 + tmp50
    tmp52 = tl.broadcast_to(tmp51, [XBLOCK, R0_BLOCK])
    tmp54 = tl.broadcast_to(tmp52, [XBLOCK, R0_BLOCK])
    tmp56 = tl.where(r0_mask & xmask, tmp54, float("-inf"))
    tmp57 = triton_helpers.max2(tmp56, 1)[:, None].to(tl.float32)
    tmp58 = tmp52 - tmp57
    tmp59 = libdevice.exp(tmp58)
    tmp60 = tl.broadcast_to(tmp59, [XBLOCK, R0_BLOCK])
    tmp62 = tl.where(r0_mask & xmask, tmp60, 0)
    tmp63 = tl.sum(tmp62, 1)[:, None].to(tl.float32)
    tmp64 = tmp51 - tmp57
    tmp65 = libdevice.exp(tmp64)
    tmp66 = (tmp65 / tmp63)
    tl.store(in_out_ptr0 + (r0_4 + 49*x5), tmp66, r0_mask & xmask)
