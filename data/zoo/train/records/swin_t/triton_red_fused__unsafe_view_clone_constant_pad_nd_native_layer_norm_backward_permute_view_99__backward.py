import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'y': 128, 'x': 16, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'r0_numel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_red_fused__unsafe_view_clone_constant_pad_nd_native_layer_norm_backward_permute_view_99', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'autotune_hints': set(), 'tiling_scores': {'y': 442368, 'x': 6912, 'r0_': 442368}, 'backend_hash': '6A3AE901015DF4FAE23BCBAE9204AB5EF42CC720B817BF67E14B515799F550D6', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__unsafe_view_clone_constant_pad_nd_native_layer_norm_backward_permute_view_99(in_ptr0, in_ptr1, out_ptr0, ks0, ynumel, xnumel, r0_numel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    ynumel = 96
    xnumel = 9
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, None, :]
    rbase = r0_base
    x1 = xindex
    y0 = yindex
    _tmp17 = tl.full([YBLOCK, XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + x1*((8 + 384*ks0) // 9)).to(tl.int32)
        tmp1 = (384*ks0).to(tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = (tl.broadcast_to((((r0_2 + x1*((8 + 384*ks0) // 9)) // 24) % 16), [YBLOCK, XBLOCK, R0_BLOCK])).to(tl.int32)
        tmp4 = tl.full([1, 1, 1], 21, tl.int64)
        tmp5 = tmp3 < tmp4
        tmp6 = (tl.broadcast_to(((r0_2 + x1*((8 + 384*ks0) // 9)) % 24), [YBLOCK, XBLOCK, R0_BLOCK])).to(tl.int32)
        tmp7 = tl.full([1, 1, 1], 28, tl.int64)
        tmp8 = tmp6 < tmp7
        tmp9 = tmp5 & tmp8
        tmp10 = tmp9 & tmp2
        tmp11 = tl.load(in_ptr0 + (y0 + 96*(((((r0_2 + x1*((8 + 384*ks0) // 9)) % 24)) % 7)) + 672*((((((r0_2 + x1*((8 + 384*ks0) // 9)) // 24) % 16)) % 7)) + 4704*((((r0_2 + x1*((8 + 384*ks0) // 9)) % 24)) // 7) + 18816*(((((r0_2 + x1*((8 + 384*ks0) // 9)) // 24) % 16)) // 7) + 56448*((((r0_2 + x1*((8 + 384*ks0) // 9)) // 384) % ks0))), r0_mask & tmp10 & xmask & ymask, eviction_policy='evict_first', other=0.0)
        tmp12 = tl.load(in_ptr1 + (384*y0 + 36864*((((r0_2 + x1*((8 + 384*ks0) // 9)) // 384) % ks0)) + (((r0_2 + x1*((8 + 384*ks0) // 9)) % 384))), r0_mask & tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
        tmp13 = tmp11 * tmp12
        tmp14 = tl.full(tmp13.shape, 0, tmp13.dtype)
        tmp15 = tl.where(tmp2, tmp13, tmp14)
        tmp16 = tl.broadcast_to(tmp15, [YBLOCK, XBLOCK, R0_BLOCK])
        tmp18 = _tmp17 + tmp16
        _tmp17 = tl.where(r0_mask & xmask & ymask, tmp18, _tmp17)
    tmp17 = tl.sum(_tmp17, 2)[:, :, None]
    tl.store(out_ptr0 + (x1 + 9*y0), tmp17, xmask & ymask)
