"""Registered programs beyond pointwise indexing (issue 13): reductions over a dynamic dimension, a scan, and
indexing through a tensor of indices.

Reductions (``triton_red_*`` / ``triton_per_*`` kernels): softmax, log_softmax, layer_norm, rms_norm,
cross-entropy forward, sum and mean over dim 0 and over dim -1, cumsum. Indirect indexing (loads through a
loaded index, guarded by ``tl.device_assert``): embedding, index_select, gather, advanced indexing ``x[idx]``
(negative indices wrap through ``tl.where``), roll; and nearest upsampling (computed source indices).

Every example size is >= 2 and distinct per independent dimension (Dynamo specializes sizes 0 and 1 and
merges equal sizes into one symbol). Index inputs are ``int64``; :meth:`Program.make_inputs` draws them in
``[0, 7)``, so every indexed dimension's example size is at least 7 (the indices are in range).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from workbench.programs.corpus import F32, _p

I64 = "int64"

# --- reductions ---------------------------------------------------------------------------------------------


def softmax_last(x):
    return torch.softmax(x, dim=-1)


_p("softmax_last", softmax_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Softmax over a dynamic last dim.")


def log_softmax_last(x):
    return F.log_softmax(x, dim=-1)


_p("log_softmax_last", log_softmax_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5},
   "log_softmax over a dynamic last dim.")


def layer_norm(x, w, b):
    return F.layer_norm(x, x.shape[-1:], w, b)


_p("layer_norm", layer_norm, [(("rows", "w"), F32), (("w",), F32), (("w",), F32)], {"rows": 7, "w": 5},
   "layer_norm over the last dim, with weight and bias.")


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


_p("rms_norm", rms_norm, [(("rows", "w"), F32), (("w",), F32)], {"rows": 7, "w": 5},
   "RMS norm over the last dim, times a weight.")


def cross_entropy(logits, target):
    return F.cross_entropy(logits, target)


_p("cross_entropy", cross_entropy, [(("rows", "c"), F32), (("rows",), I64)], {"rows": 5, "c": 11},
   "Cross-entropy forward (mean over rows) of logits and class indices.")


def sum_dim0(x):
    return x.sum(dim=0)


_p("sum_dim0", sum_dim0, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Sum over dim 0.")


def sum_last(x):
    return x.sum(dim=-1)


_p("sum_last", sum_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Sum over the last dim.")


def mean_dim0(x):
    return x.mean(dim=0)


_p("mean_dim0", mean_dim0, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Mean over dim 0.")


def mean_last(x):
    return x.mean(dim=-1)


_p("mean_last", mean_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Mean over the last dim.")


def cumsum_last(x):
    return torch.cumsum(x, dim=-1)


_p("cumsum_last", cumsum_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "Cumulative sum over the last dim.")

def cumsum_rows8(x):
    return torch.cumsum(x, dim=-1)


_p("cumsum_rows8", cumsum_rows8, [(("rows", 8), F32)], {"rows": 7},
   "Cumulative sum over a static last dim of 8: a persistent scan (triton_per_*).", dynamic=((0,),))


def argmax_last(x):
    return torch.argmax(x, -1)


_p("argmax_last", argmax_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5},
   "argmax over a dynamic last dim (an int64 index accumulator).")


def max_with_index_last(x):
    values, indices = torch.max(x, dim=-1)
    return values, indices


_p("max_with_index_last", max_with_index_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5},
   "torch.max over the last dim returning values and indices (max_with_index).")


def argmin_dim0(x):
    return torch.argmin(x, 0)


_p("argmin_dim0", argmin_dim0, [(("rows", "w"), F32)], {"rows": 7, "w": 5},
   "argmin over dim 0 (a reduction over the outer dimension).")


# --- indexing through indices -----------------------------------------------------------------------------


def embedding(idx, weight):
    return F.embedding(idx, weight)


_p("embedding", embedding, [(("n",), I64), (("v", "d"), F32)], {"n": 5, "v": 11, "d": 3},
   "Embedding lookup: rows of a table selected by int64 indices.")


def index_select(x, idx):
    return torch.index_select(x, 0, idx)


_p("index_select", index_select, [(("n", "w"), F32), (("k",), I64)], {"n": 11, "w": 3, "k": 5},
   "index_select along dim 0.")


def gather_last(x, idx):
    return torch.gather(x, 1, idx)


_p("gather_last", gather_last, [(("rows", "w"), F32), (("rows", "k"), I64)], {"rows": 3, "w": 9, "k": 5},
   "gather along the last dim.")


def index_tensor(x, idx):
    return x[idx]


_p("index_tensor", index_tensor, [(("n", "w"), F32), (("k",), I64)], {"n": 11, "w": 3, "k": 5},
   "Advanced indexing x[idx] (negative indices wrap: a tl.where-selected index).")


def roll_last(x):
    return torch.roll(x, 2, -1)


_p("roll_last", roll_last, [(("rows", "w"), F32)], {"rows": 7, "w": 5}, "roll by 2 along the last dim.")


def upsample_nearest(x):
    return F.interpolate(x, scale_factor=2, mode="nearest")


_p("upsample_nearest", upsample_nearest, [(("n", "c", "h", "w"), F32)], {"n": 2, "c": 3, "h": 5, "w": 7},
   "Nearest-neighbour upsampling by 2 of an NCHW tensor.")

# --- a static extent ------------------------------------------------------------------------------------------


def transpose_static(x):
    return x.t().contiguous()


_p("transpose_static", transpose_static, [(("rows", 6), F32)], {"rows": 7},
   "Transpose of a [rows, 6] tensor with only rows dynamic: Inductor writes the static extent as a bare "
   "literal (xnumel = 6).", dynamic=((0,),))
