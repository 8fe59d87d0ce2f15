import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 1024, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__unsafe_view_clone_constant_pad_nd_native_layer_norm_backward_permute_roll_view_95', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'autotune_hints': set(), 'tiling_scores': {'x': 449280, 'r0_': 392}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_clone_constant_pad_nd_native_layer_norm_backward_permute_roll_view_95(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 864
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 96
    x0 = (xindex % 96)
    _tmp29 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + x1*((8 + 384*ks0) // 9)).to(tl.int32)
        tmp1 = (384*ks0).to(tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = ((((r0_2 + x1*((8 + 384*ks0) // 9)) // 24) % 16)).to(tl.int32)
        tmp4 = tl.full([1, 1], 21, tl.int64)
        tmp5 = tmp3 < tmp4
        tmp6 = (((r0_2 + x1*((8 + 384*ks0) // 9)) % 24)).to(tl.int32)
        tmp7 = tl.full([1, 1], 28, tl.int64)
        tmp8 = tmp6 < tmp7
        tmp9 = tmp5 & tmp8
        tmp10 = tmp9 & tmp2
        tmp11 = tl.load(in_ptr0 + ((((r0_2 + x1*((8 + 384*ks0) // 9)) // 24) % 16)), r0_mask & tmp10 & xmask, eviction_policy='evict_last', other=0.0)
        tmp12 = (tl.full([1, 1], 21, tl.int32)).to(tl.int32)
        tmp13 = tmp11 + tmp12
        tmp14 = tmp11 < 0
        tmp15 = tl.where(tmp14, tmp13, tmp11)
        tl.device_assert(((0 <= tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK]) < 21)) | ~(r0_mask & tmp10 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK]) < 21")
        tmp17 = tl.load(in_ptr1 + (((r0_2 + x1*((8 + 384*ks0) // 9)) % 24)), r0_mask & tmp10 & xmask, eviction_policy='evict_last', other=0.0)
        tmp18 = (tl.full([1, 1], 28, tl.int32)).to(tl.int32)
        tmp19 = tmp17 + tmp18
        tmp20 = tmp17 < 0
        tmp21 = tl.where(tmp20, tmp19, tmp17)
        tl.device_assert(((0 <= tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK]) < 28)) | ~(r0_mask & tmp10 & xmask), "index out of bounds: 0 <= tl.broadcast_to(tmp21, [XBLOCK, R0_BLOCK]) < 28")
        tmp23 = tl.load(in_ptr2 + (x0 + 96*((tmp21 % 7)) + 672*((tmp15 % 7)) + 4704*(((tmp21 // 7) % 4)) + 18816*(((tmp15 // 7) % 3)) + 56448*((((r0_2 + x1*((8 + 384*ks0) // 9)) // 384) % ks0))), r0_mask & tmp10 & xmask, eviction_policy='evict_first', other=0.0)
        tmp24 = tl.load(in_ptr3 + (x0 + 96*(((r0_2 + x1*((8 + 384*ks0) // 9)) % (384*ks0)))), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp25 = tmp23 * tmp24
        tmp26 = tl.full(tmp25.shape, 0, tmp25.dtype)
        tmp27 = tl.where(tmp2, tmp25, tmp26)
        tmp28 = tl.broadcast_to(tmp27, [XBLOCK, R0_BLOCK])
        tmp30 = _tmp29 + tmp28
        _tmp29 = tl.where(r0_mask & xmask, tmp30, _tmp29)
    tmp29 = tl.sum(_tmp29, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp29, xmask)
