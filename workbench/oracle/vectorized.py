"""Reductions and scans with a custom combine function, run on whole vectors instead of one element at a time.

Stage: oracle (worker only). Triton's interpreter (triton 3.7.1, ``ReduceOps.generic_reduce`` and
``ScanOps.generic_scan``) runs ``tl.reduce``/``tl.associative_scan`` with a combine function other than the
built-in sum/max/min/argmax one *element* at a time: a left fold, one Python call of the combine function per
tile element — ``triton_helpers.max2`` over a 64 x 64 tile took 2.4 s here, a cumsum step over 2048 lanes as
long. While a program runs, the worker replaces those two slow paths with :func:`tree_reduce` (adjacent pairs
combined level by level: log2(n) calls of the same combine function on whole vectors) and :func:`tree_scan`
(Hillis-Steele inclusive scan: log2(n) calls on the whole tile, the lanes that have no partner yet keeping
their value), each call's left operand always the earlier elements. Built-in
combines keep the interpreter's own numpy paths.

Why that is sound for the oracle: ``tl.reduce`` and ``tl.associative_scan`` require an associative combine, and
Triton fixes no evaluation order (the GPU lowering reduces within threads, then across lanes in a tree); the
interpreter's left fold is one order, this tree is another, and the *same* order runs in the wide and the
narrowed kernel. The combine function itself — the kernel's helper or ``triton_helpers``' — still runs as
written, under the interpreter, on every element. For float data the rounding of the combined value depends on
the order, so the oracle's stored bits are comparable between its two runs, not with a GPU's.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import numpy as np


def _combine(op, lhs: list[np.ndarray], rhs: list[np.ndarray], dtypes) -> list[np.ndarray]:
    a = tuple(op.to_tensor(x, dt) for x, dt in zip(lhs, dtypes))
    b = tuple(op.to_tensor(x, dt) for x, dt in zip(rhs, dtypes))
    ret = op.combine_fn.fn(*a, *b)
    ret = ret if isinstance(ret, tuple) else (ret,)
    out = []
    for r, like in zip(ret, lhs):
        data = r.handle.data if hasattr(r, "handle") else np.asarray(r)
        out.append(np.broadcast_to(data, like.shape).astype(like.dtype))
    return out


def _take(d: np.ndarray, idx, axis: int) -> np.ndarray:
    return np.take(d, idx, axis=axis)


def tree_reduce(self, input):
    """``ReduceOps.generic_reduce`` with a pairwise tree (same packing of the result as the interpreter's)."""
    original_axis = self.axis
    input, axis = self.unravel(input, self.axis)
    dtypes = [arg.dtype for arg in input]
    arrays = [np.asarray(arg.handle.data) for arg in input]
    input_shape = arrays[0].shape
    while arrays[0].shape[axis] > 1:
        n = arrays[0].shape[axis]
        half = n // 2
        lhs = [_take(d, np.arange(0, 2 * half, 2), axis) for d in arrays]
        rhs = [_take(d, np.arange(1, 2 * half, 2), axis) for d in arrays]
        res = _combine(self, lhs, rhs, dtypes)
        if n % 2:
            res = [np.concatenate([r, _take(d, [n - 1], axis)], axis=axis) for r, d in zip(res, arrays)]
        arrays = res
    ret = []
    for i, d in enumerate(arrays):
        data = np.squeeze(d, axis=axis)
        if self.keep_dims:
            if original_axis is not None:
                data = np.expand_dims(data, axis)
            else:
                for _ in range(len(input_shape)):
                    data = np.expand_dims(data, 0)
        elif original_axis is None:
            data = data.item()
        ret.append(self.to_tensor(data, input[i].dtype))
    return ret


def tree_scan(self, input):
    """``ScanOps.generic_scan`` as a Hillis-Steele inclusive scan along ``self.axis``."""
    dtypes = [arg.dtype for arg in input]
    arrays = [np.asarray(arg.handle.data) for arg in input]
    axis = self.axis % arrays[0].ndim
    n = arrays[0].shape[axis]
    shape = [1] * arrays[0].ndim
    shape[axis] = n
    position = np.arange(n).reshape(shape)
    k = 1
    while k < n:
        # every lane i >= k combines (lane i - k, lane i); tensors keep the block's power-of-two shape (Triton
        # refuses others), so the shifted operand wraps around and lanes i < k keep their value
        earlier = [np.roll(d, k, axis=axis) for d in arrays]
        res = _combine(self, earlier, arrays, dtypes)
        arrays = [np.where(position >= k, r, d) for d, r in zip(arrays, res)]
        k *= 2
    return [self.to_tensor(d, input[i].dtype) for i, d in enumerate(arrays)]


@contextlib.contextmanager
def installed() -> Iterator[None]:
    from triton.runtime import interpreter as I

    old = I.ReduceOps.generic_reduce, I.ScanOps.generic_scan
    I.ReduceOps.generic_reduce, I.ScanOps.generic_scan = tree_reduce, tree_scan
    try:
        yield
    finally:
        I.ReduceOps.generic_reduce, I.ScanOps.generic_scan = old
