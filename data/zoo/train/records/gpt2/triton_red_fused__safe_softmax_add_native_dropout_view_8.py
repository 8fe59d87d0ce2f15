import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'out_ptr4': '*i1', 'out_ptr5': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'load_seed_offset': 'constexpr', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {'load_seed_offset': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__safe_softmax_add_native_dropout_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 4, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 46644}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__safe_softmax_add_native_dropout_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr4, out_ptr5, ks0, ks1, ks2, load_seed_offset, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % ks0)
    x2 = xindex // ks1
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    _tmp12 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_3 + ks0*x0 + ks2*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = triton_helpers.maximum(_tmp4, tmp3)
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
        tmp6 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp7 = tmp2 == tmp6
        tmp8 = tmp7 == 0
        tmp9 = tmp8.to(tl.int64)
        tmp10 = (tmp9 != 0)
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 | tmp11
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
    tmp4 = triton_helpers.max2(_tmp4, 1)[:, None]
    tmp14 = _tmp12.to(tl.int8)
    tmp12 = triton_helpers.any(tmp14, 1)[:, None]
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp15 = tl.load(in_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp16 = tl.load(in_ptr1 + (r0_3 + ks0*x0 + ks2*x2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp17 = tmp15 + tmp16
        tmp18 = tmp17 - tmp4
        tmp19 = libdevice.exp(tmp18)
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
        tmp23 = tl.load(in_ptr2 + load_seed_offset)
        tmp24 = (r0_3 + x4*(ks2 // ks0)).to(tl.int32)
        tmp25 = tl.rand(tmp23, (tmp24).to(tl.uint32))
        tmp26 = tl.full([1, 1], 0.1, tl.float32)
        tmp27 = tmp25 > tmp26
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp19, r0_mask & xmask)
        tl.store(out_ptr4 + (r0_3 + x4*(ks2 // ks0)), tmp27, r0_mask & xmask)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp29 = tl.load(in_out_ptr0 + (r0_3 + ks0*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp33 = tl.load(out_ptr4 + (r0_3 + x4*(ks2 // ks0)), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.int1)
        tmp28 = tmp12 == 0
        tmp30 = (tmp29 / tmp21)
        tmp31 = tl.full([1, 1], 0.0, tl.float32)
        tmp32 = tl.where(tmp28, tmp31, tmp30)
        tmp34 = tmp33.to(tl.float32)
        tmp35 = tmp34 * tmp32
        tmp36 = tl.full([1, 1], 1.1111111111111112, tl.float32)
        tmp37 = tmp35 * tmp36
        tl.store(in_out_ptr0 + (r0_3 + ks0*x4), tmp32, r0_mask & xmask)
        tl.store(out_ptr5 + (r0_3 + x4*(ks2 // ks0)), tmp37, r0_mask & xmask)
