import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 32, 'r0_': 2048},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused_cat_native_layer_norm_slice_46', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 675840}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused_cat_native_layer_norm_slice_46(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 1536
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 3)
    x1 = xindex // 3
    tmp26_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp26_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp26_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2).to(tl.int32)
        tmp1 = tl.full([1, 1], 0, tl.int64)
        tmp2 = tmp0 >= tmp1
        tmp3 = (r0_2).to(tl.int64)
        tmp4 = (tmp3).to(tl.int64)
        tmp5 = tl.full([1, 1], 384, tl.int64)
        tmp6 = tmp4 < tmp5
        tmp7 = tl.load(in_ptr0 + (768*x0 + 4608*x1 + (r0_2)), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0)
        tmp8 = tmp4 >= tmp5
        tmp9 = tl.full([1, 1], 768, tl.int64)
        tmp10 = tmp4 < tmp9
        tmp11 = tmp8 & tmp10
        tmp12 = tl.load(in_ptr0 + (2304 + 768*x0 + 4608*x1 + ((-384) + r0_2)), r0_mask & tmp11 & xmask, eviction_policy='evict_last', other=0.0)
        tmp13 = tmp4 >= tmp9
        tmp14 = tl.full([1, 1], 1152, tl.int64)
        tmp15 = tmp4 < tmp14
        tmp16 = tmp13 & tmp15
        tmp17 = tl.load(in_ptr0 + (384 + 768*x0 + 4608*x1 + ((-768) + r0_2)), r0_mask & tmp16 & xmask, eviction_policy='evict_last', other=0.0)
        tmp18 = tmp0 >= tmp14
        tmp19 = tl.full([1, 1], 1536, tl.int64)
        tmp20 = tmp0 < tmp19
        tmp21 = tl.load(in_ptr0 + (2688 + 768*x0 + 4608*x1 + ((-1152) + r0_2)), r0_mask & tmp18 & xmask, eviction_policy='evict_last', other=0.0)
        tmp22 = tl.where(tmp16, tmp17, tmp21)
        tmp23 = tl.where(tmp11, tmp12, tmp22)
        tmp24 = tl.where(tmp6, tmp7, tmp23)
        tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
        tmp26_mean_next, tmp26_m2_next, tmp26_weight_next = triton_helpers.welford_reduce(
            tmp25, tmp26_mean, tmp26_m2, tmp26_weight, roffset == 0
        )
        tmp26_mean = tl.where(r0_mask & xmask, tmp26_mean_next, tmp26_mean)
        tmp26_m2 = tl.where(r0_mask & xmask, tmp26_m2_next, tmp26_m2)
        tmp26_weight = tl.where(r0_mask & xmask, tmp26_weight_next, tmp26_weight)
    tmp27, tmp28, tmp29 = triton_helpers.welford(tmp26_mean, tmp26_m2, tmp26_weight, 1)
    tmp26 = tmp27[:, None]
    tmp30 = tmp28[:, None]
    tmp31 = tmp29[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp64 = tl.load(in_ptr1 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp66 = tl.load(in_ptr2 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp32 = (r0_2).to(tl.int32)
        tmp33 = tl.full([1, 1], 0, tl.int64)
        tmp34 = tmp32 >= tmp33
        tmp35 = (r0_2).to(tl.int64)
        tmp36 = (tmp35).to(tl.int64)
        tmp37 = tl.full([1, 1], 384, tl.int64)
        tmp38 = tmp36 < tmp37
        tmp39 = tl.load(in_ptr0 + (768*x0 + 4608*x1 + (r0_2)), r0_mask & tmp38 & xmask, eviction_policy='evict_last', other=0.0)
        tmp40 = tmp36 >= tmp37
        tmp41 = tl.full([1, 1], 768, tl.int64)
        tmp42 = tmp36 < tmp41
        tmp43 = tmp40 & tmp42
        tmp44 = tl.load(in_ptr0 + (2304 + 768*x0 + 4608*x1 + ((-384) + r0_2)), r0_mask & tmp43 & xmask, eviction_policy='evict_last', other=0.0)
        tmp45 = tmp36 >= tmp41
        tmp46 = tl.full([1, 1], 1152, tl.int64)
        tmp47 = tmp36 < tmp46
        tmp48 = tmp45 & tmp47
        tmp49 = tl.load(in_ptr0 + (384 + 768*x0 + 4608*x1 + ((-768) + r0_2)), r0_mask & tmp48 & xmask, eviction_policy='evict_last', other=0.0)
        tmp50 = tmp32 >= tmp46
        tmp51 = tl.full([1, 1], 1536, tl.int64)
        tmp52 = tmp32 < tmp51
        tmp53 = tl.load(in_ptr0 + (2688 + 768*x0 + 4608*x1 + ((-1152) + r0_2)), r0_mask & tmp50 & xmask, eviction_policy='evict_last', other=0.0)
        tmp54 = tl.where(tmp48, tmp49, tmp53)
        tmp55 = tl.where(tmp43, tmp44, tmp54)
        tmp56 = tl.where(tmp38, tmp39, tmp55)
        tmp57 = tmp56 - tmp26
        tmp58 = tl.full([1, 1], 1536.0, tl.float32)
        tmp59 = (tmp30 / tmp58)
        tmp60 = tl.full([1, 1], 1e-05, tl.float32)
        tmp61 = tmp59 + tmp60
        tmp62 = libdevice.rsqrt(tmp61)
        tmp63 = tmp57 * tmp62
        tmp65 = tmp63 * tmp64
        tmp67 = tmp65 + tmp66
        tl.store(in_out_ptr0 + (r0_2 + 1536*x3), tmp67, r0_mask & xmask)
