import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=58, cc=89, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=1536, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__safe_softmax_add_ones_prepare_softmax_online_scalar_tensor_tril_view_where_2', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 24336}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__safe_softmax_add_ones_prepare_softmax_online_scalar_tensor_tril_view_where_2(in_out_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x3 = xindex
    x0 = (xindex % ks1)
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp20 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_2 + ks0*x3), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = (r0_2 + ((-1)*x0)).to(tl.int64)
        tmp2 = (tmp1).to(tl.int64)
        tmp3 = tl.full([1, 1], 0, tl.int64)
        tmp4 = tmp2 <= tmp3
        tmp5 = tl.full([1, 1], True, tl.int1)
        tmp6 = tmp4 & tmp5
        tmp7 = tl.full([1, 1], 0.0, tl.float32)
        tmp8 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp9 = tl.where(tmp6, tmp7, tmp8)
        tmp10 = tmp0 + tmp9
        tmp11 = tmp10 == tmp8
        tmp12 = tmp11 == 0
        tmp13 = tmp12.to(tl.int64)
        tmp14 = (tmp13 != 0)
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 | tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tmp19 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp21 = triton_helpers.maximum(_tmp20, tmp19)
        _tmp20 = tl.where(r0_mask & xmask, tmp21, _tmp20)
    tmp18 = _tmp16.to(tl.int8)
    tmp16 = triton_helpers.any(tmp18, 1)[:, None]
    tmp20 = triton_helpers.max2(_tmp20, 1)[:, None]
    _tmp36 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp22 = tl.load(in_out_ptr0 + (r0_2 + ks0*x3), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp23 = (r0_2 + ((-1)*x0)).to(tl.int64)
        tmp24 = (tmp23).to(tl.int64)
        tmp25 = tl.full([1, 1], 0, tl.int64)
        tmp26 = tmp24 <= tmp25
        tmp27 = tl.full([1, 1], True, tl.int1)
        tmp28 = tmp26 & tmp27
        tmp29 = tl.full([1, 1], 0.0, tl.float32)
        tmp30 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp31 = tl.where(tmp28, tmp29, tmp30)
        tmp32 = tmp22 + tmp31
        tmp33 = tmp32 - tmp20
        tmp34 = libdevice.exp(tmp33)
        tmp35 = tl.broadcast_to(tmp34, [XBLOCK, R0_BLOCK])
        tmp37 = _tmp36 + tmp35
        _tmp36 = tl.where(r0_mask & xmask, tmp37, _tmp36)
    tmp36 = tl.sum(_tmp36, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp39 = tl.load(in_out_ptr0 + (r0_2 + ks0*x3), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp38 = tmp16 == 0
        tmp40 = (r0_2 + ((-1)*x0)).to(tl.int64)
        tmp41 = (tmp40).to(tl.int64)
        tmp42 = tl.full([1, 1], 0, tl.int64)
        tmp43 = tmp41 <= tmp42
        tmp44 = tl.full([1, 1], True, tl.int1)
        tmp45 = tmp43 & tmp44
        tmp46 = tl.full([1, 1], 0.0, tl.float32)
        tmp47 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp48 = tl.where(tmp45, tmp46, tmp47)
        tmp49 = tmp39 + tmp48
        tmp50 = tmp49 - tmp20
        tmp51 = libdevice.exp(tmp50)
        tmp52 = (tmp51 / tmp36)
        tmp53 = tl.where(tmp38, tmp46, tmp52)
        tl.store(in_out_ptr0 + (r0_2 + ks0*x3), tmp53, r0_mask & xmask)
