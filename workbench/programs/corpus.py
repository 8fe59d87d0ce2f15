"""The registered programs: report 1's nested concat, the held-out patterns of report 2, and a development
corpus of pointwise indexing programs (cat/stack variants, slicing, padding, tile, repeat, movedim, permute,
expand+reshape, triangular masks, rotary, computed offsets, broadcasting).

Every example size is >= 2 and distinct per independent dimension (Dynamo specializes sizes 0 and 1 and
merges equal sizes into one symbol).
"""

from __future__ import annotations

from types import MappingProxyType

import torch
import torch.nn.functional as F

from workbench.programs.program import InputSpec, Program, register


def _shapes(**seqs):
    return MappingProxyType({k: tuple(MappingProxyType(s) for s in v) for k, v in seqs.items()})


def _p(name, fn, inputs, example, description, shapes=None, dynamic=None):
    return register(
        Program(
            name=name,
            fn=fn,
            inputs=tuple(InputSpec(tuple(s), d) for s, d in inputs),
            example=MappingProxyType(example),
            shapes=shapes or _shapes(tiny=[example]),
            dynamic=dynamic,
            description=description,
        )
    )


BF16 = "bfloat16"
F32 = "float32"

# --- report 1 -------------------------------------------------------------------------------------------


def nested_cat_add(q1, k1, v1a, v1b, q2, k2, v2a, v2b):
    v1 = v1a + v1b
    v2 = v2a + v2b
    return torch.cat(
        [
            torch.cat([q1, k1, v1], dim=-1),
            torch.cat([q2, k2, v2], dim=-1),
        ],
        dim=-1,
    )


def _rqkv(rows, q, k, v):
    return {"rows": rows, "q": q, "k": k, "v": v}


# The ten small shapes of report 1's confirmation table (rows x (q, k, v)), as listed in the report.
CONFIRM_SMALL = [
    _rqkv(1536, 2048, 256, 256), _rqkv(2048, 2048, 256, 256), _rqkv(2500, 1000, 120, 136),
    _rqkv(3000, 1000, 120, 136), _rqkv(3500, 1000, 120, 136), _rqkv(2048, 3072, 512, 512),
    _rqkv(4096, 2048, 256, 256), _rqkv(2048, 4096, 1024, 1024), _rqkv(12345, 1000, 120, 136),
    _rqkv(4096, 3072, 512, 512),
]
# A 14-shape changing-shape sequence of our own (the report's exact sequence is not published in the
# material we have); it mixes the table's width families with larger row counts.
SEQUENCE = [
    _rqkv(1024, 2048, 256, 256), _rqkv(8192, 2048, 256, 256), _rqkv(2500, 1000, 120, 136),
    _rqkv(6000, 1000, 120, 136), _rqkv(2048, 3072, 512, 512), _rqkv(8192, 1024, 128, 128),
    _rqkv(4096, 4096, 1024, 1024), _rqkv(12345, 1000, 120, 136), _rqkv(3000, 2048, 512, 256),
    _rqkv(16384, 512, 64, 64), _rqkv(5000, 1536, 192, 200), _rqkv(2048, 8192, 1024, 1024),
    _rqkv(7777, 1000, 120, 136), _rqkv(4096, 3072, 512, 512),
]
TINY = [_rqkv(7, 11, 5, 3), _rqkv(3, 9, 4, 6), _rqkv(13, 2, 7, 5), _rqkv(5, 17, 3, 4)]

_p(
    "nested_cat_add",
    nested_cat_add,
    [(("rows", "q"), BF16), (("rows", "k"), BF16), (("rows", "v"), BF16), (("rows", "v"), BF16)] * 2,
    {"rows": 7, "q": 11, "k": 5, "v": 3},
    "Report 1: two three-way concats with additions, concatenated again along a dynamic last dimension.",
    shapes=_shapes(confirm_small=CONFIRM_SMALL, sequence=SEQUENCE, tiny=TINY),
)


def nested_cat_add_distinct(q1, k1, v1a, v1b, q2, k2, v2a, v2b):
    return nested_cat_add(q1, k1, v1a, v1b, q2, k2, v2a, v2b)


_p(
    "nested_cat_add_distinct",
    nested_cat_add_distinct,
    [(("rows", "q1"), BF16), (("rows", "k1"), BF16), (("rows", "v1"), BF16), (("rows", "v1"), BF16),
     (("rows", "q2"), BF16), (("rows", "k2"), BF16), (("rows", "v2"), BF16), (("rows", "v2"), BF16)],
    {"rows": 7, "q1": 11, "k1": 5, "v1": 3, "q2": 13, "k2": 4, "v2": 6},
    "nested_cat_add with distinct widths in the two halves: seven size arguments, as in report 1's kernel.",
    shapes=_shapes(tiny=[{"rows": 7, "q1": 11, "k1": 5, "v1": 3, "q2": 13, "k2": 4, "v2": 6},
                         {"rows": 3, "q1": 2, "k1": 9, "v1": 4, "q2": 5, "k2": 8, "v2": 2}]),
)

# --- report 2's held-out patterns -------------------------------------------------------------------------


def cat3(a, b, c):
    return torch.cat([a, b, c], dim=-1)


_p("cat3", cat3, [(("rows", "a"), BF16), (("rows", "b"), BF16), (("rows", "c"), BF16)],
   {"rows": 7, "a": 11, "b": 5, "c": 3}, "Three-segment concat along the last dimension.")


def rotary(x, cos, sin):
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


_p("rotary", rotary, [(("rows", "d"), F32), (("rows", "d"), F32), (("rows", "d"), F32)],
   {"rows": 7, "d": 12}, "Rotary embedding: x*cos + rotate_half(x)*sin with a dynamic head dimension.")


def tile(x):
    return torch.tile(x, (1, 2))


_p("tile", tile, [(("a", "b"), F32)], {"a": 7, "b": 5}, "torch.tile doubling the last dimension.")


def movedim(x):
    return torch.movedim(x, 0, -1).contiguous()


_p("movedim", movedim, [(("a", "b", "c"), F32)], {"a": 7, "b": 5, "c": 3},
   "movedim(0, -1) materialized: a strided copy.")


def expand_reshape(x, y):
    return x.unsqueeze(1).expand(-1, y.shape[0], -1).reshape(-1, x.shape[1]) * 2


_p("expand_reshape", expand_reshape, [(("a", "b"), F32), (("c",), F32)], {"a": 7, "b": 5, "c": 3},
   "Expand a middle dimension taken from another input, then reshape (a copy).")


def permute_flatten(x):
    return x.permute(1, 0, 2).flatten(1) + 1


_p("permute_flatten", permute_flatten, [(("a", "b", "c"), F32)], {"a": 7, "b": 5, "c": 3},
   "Permute then flatten the last two dimensions.")


def stack(a, b):
    return torch.stack([a, b], dim=-1)


_p("stack", stack, [(("rows", "w"), F32), (("rows", "w"), F32)], {"rows": 7, "w": 5},
   "Stack two tensors along a new last dimension.")


def triangular_mask(x):
    return torch.triu(x, diagonal=1)


_p("triangular_mask", triangular_mask, [(("n", "m"), F32)], {"n": 7, "m": 5},
   "Upper-triangular mask (triu) of a 2-D tensor.")

# --- development corpus -------------------------------------------------------------------------------------


def cat2(a, b):
    return torch.cat([a, b], dim=-1)


_p("cat2", cat2, [(("rows", "a"), BF16), (("rows", "b"), BF16)], {"rows": 7, "a": 11, "b": 5},
   "Two-segment concat along the last dimension.")


def cat_dim0(a, b):
    return torch.cat([a, b], dim=0)


_p("cat_dim0", cat_dim0, [(("r1", "w"), F32), (("r2", "w"), F32)], {"r1": 7, "r2": 5, "w": 3},
   "Concat along the first dimension.")


def cat_add(a, b, c):
    return torch.cat([a + b, c], dim=-1)


_p("cat_add", cat_add, [(("rows", "a"), F32), (("rows", "a"), F32), (("rows", "c"), F32)],
   {"rows": 7, "a": 11, "c": 5}, "Concat of a sum and a tensor.")


def cat4(a, b, c, d):
    return torch.cat([a, b, c, d], dim=-1)


_p("cat4", cat4, [(("rows", "a"), F32), (("rows", "b"), F32), (("rows", "c"), F32), (("rows", "d"), F32)],
   {"rows": 7, "a": 11, "b": 5, "c": 3, "d": 13}, "Four-segment concat.")


def cat_3d_last(a, b):
    return torch.cat([a, b], dim=-1)


_p("cat_3d_last", cat_3d_last, [(("p", "q", "a"), F32), (("p", "q", "b"), F32)],
   {"p": 7, "q": 5, "a": 3, "b": 11}, "Concat of 3-D tensors along the last dimension.")


def cat_3d_middle(a, b):
    return torch.cat([a, b], dim=1)


_p("cat_3d_middle", cat_3d_middle, [(("p", "a", "r"), F32), (("p", "b", "r"), F32)],
   {"p": 7, "a": 5, "b": 3, "r": 11}, "Concat of 3-D tensors along the middle dimension.")


def stack3(a, b, c):
    return torch.stack([a, b, c], dim=1)


_p("stack3", stack3, [(("rows", "w"), F32)] * 3, {"rows": 7, "w": 5}, "Stack three tensors along dim 1.")


def stack_dim0(a, b):
    return torch.stack([a, b], dim=0) * 3


_p("stack_dim0", stack_dim0, [(("rows", "w"), F32)] * 2, {"rows": 7, "w": 5}, "Stack along a new dim 0.")


def cat_stack(a, b):
    return torch.cat([torch.stack([a, b], dim=-1).flatten(-2), a], dim=-1)


_p("cat_stack", cat_stack, [(("rows", "w"), F32)] * 2, {"rows": 7, "w": 5},
   "Interleave two tensors by stacking, then concat with one of them.")


def slice_add(x):
    return x[:, 1:] + x[:, :-1]


_p("slice_add", slice_add, [(("rows", "w"), F32)], {"rows": 7, "w": 5},
   "Sum of two shifted slices (a finite difference).")


def slice_step(x):
    return x[:, ::2] * 2


_p("slice_step", slice_step, [(("rows", "w"), F32)], {"rows": 7, "w": 6}, "Every other column.")


def narrow_cat(x):
    w = x.shape[-1]
    return torch.cat([x[:, w // 2:], x[:, : w // 2]], dim=-1)


_p("narrow_cat", narrow_cat, [(("rows", "w"), F32)], {"rows": 7, "w": 10},
   "Swap the two halves of the last dimension (a computed offset).")


def pad_last(x):
    return F.pad(x, (1, 2))


_p("pad_last", pad_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Constant padding of the last dim.")


def pad_2d(x):
    return F.pad(x, (2, 1, 1, 3), value=0.5)


_p("pad_2d", pad_2d, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Constant padding of both dims.")


def repeat(x):
    return x.repeat(2, 3)


_p("repeat", repeat, [(("a", "b"), F32)], {"a": 7, "b": 5}, "repeat(2, 3).")


def tile_rows(x):
    return torch.tile(x, (3, 1))


_p("tile_rows", tile_rows, [(("a", "b"), F32)], {"a": 7, "b": 5}, "torch.tile tripling the first dim.")


def transpose_contig(x):
    return x.t().contiguous()


_p("transpose_contig", transpose_contig, [(("a", "b"), F32)], {"a": 7, "b": 5},
   "Transpose materialized.")


def permute_3d(x):
    return x.permute(2, 0, 1).contiguous()


_p("permute_3d", permute_3d, [(("a", "b", "c"), F32)], {"a": 7, "b": 5, "c": 3},
   "permute(2, 0, 1) materialized.")


def movedim_last_first(x):
    return torch.movedim(x, -1, 0) * 2


_p("movedim_last_first", movedim_last_first, [(("a", "b", "c"), F32)], {"a": 7, "b": 5, "c": 3},
   "movedim(-1, 0) of a 3-D tensor, times 2.")


def broadcast_add(x, y):
    return x + y


_p("broadcast_add", broadcast_add, [(("a", "b"), F32), (("b",), F32)], {"a": 7, "b": 5},
   "Row vector broadcast over rows.")


def broadcast_outer(x, y):
    return x[:, None] * y[None, :]


_p("broadcast_outer", broadcast_outer, [(("a",), F32), (("b",), F32)], {"a": 7, "b": 5},
   "Outer product by broadcasting.")


def broadcast_col(x, y):
    return x + y[:, None]


_p("broadcast_col", broadcast_col, [(("a", "b"), F32), (("a",), F32)], {"a": 7, "b": 5},
   "Column vector broadcast over columns.")


def tril_mask(x):
    return torch.tril(x)


_p("tril_mask", tril_mask, [(("n", "m"), F32)], {"n": 7, "m": 5}, "Lower-triangular mask (tril).")


def causal_fill(x):
    n, m = x.shape
    i = torch.arange(n, device=x.device)[:, None]
    j = torch.arange(m, device=x.device)[None, :]
    return torch.where(j > i, torch.zeros_like(x), x)


_p("causal_fill", causal_fill, [(("n", "m"), F32)], {"n": 7, "m": 5},
   "Causal mask built from aranges and where.")


def flip_last(x):
    return x.flip(-1)


_p("flip_last", flip_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Reverse the last dimension.")


def where_select(x, y):
    return torch.where(x > 0, x, y)


_p("where_select", where_select, [(("rows", "w"), F32)] * 2, {"rows": 7, "w": 5},
   "Elementwise select (no index arithmetic beyond the flat index).")


def chunk_add(x):
    a, b = x.chunk(2, dim=-1)
    return a + b


_p("chunk_add", chunk_add, [(("rows", "w"), F32)], {"rows": 7, "w": 10},
   "Sum of the two halves of the last dimension.")


def unsqueeze_cat(a, b):
    return torch.cat([a.unsqueeze(-1), b.unsqueeze(-1)], dim=-1)


_p("unsqueeze_cat", unsqueeze_cat, [(("rows", "w"), F32)] * 2, {"rows": 7, "w": 5},
   "Concat of two unsqueezed tensors (stack written as cat).")


def pixel_shuffle_like(x):
    a, b = x.shape
    return x.reshape(a, b // 2, 2).transpose(1, 2).reshape(a, b)


_p("pixel_shuffle_like", pixel_shuffle_like, [(("a", "b"), F32)], {"a": 7, "b": 10},
   "De-interleave pairs in the last dimension via reshape and transpose.")


def cat_cast(a, b):
    return torch.cat([a.to(torch.float32), b], dim=-1)


_p("cat_cast", cat_cast, [(("rows", "a"), BF16), (("rows", "b"), F32)], {"rows": 7, "a": 11, "b": 5},
   "Concat after a dtype cast.")


def expand_add(x, y):
    return x.expand(y.shape[0], -1) + y


_p("expand_add", expand_add, [((1, "b"), F32), (("a", "b"), F32)], {"a": 7, "b": 5},
   "Expand a [1, b] tensor to [a, b] and add.")
