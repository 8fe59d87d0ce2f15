"""Integer-data programs: divisions and remainders on loaded int64 data, by a size or by a literal.

Why they are in the corpus: a ``//`` or ``%`` on loaded data is a *payload* division (``Op.PAYLOAD`` in kir),
not an index computation, and variant P must leave it exactly as emitted (red team of issue 23: an earlier P
rewrote ``tmp0 // tmp2`` on int64 data to int32 and stored 1000 where eager stores 858994459). Their inputs in
the rule's end-to-end tests hold values beyond int32 (``tests/rule/test_rule_compiled.py``); the registry's
``make_inputs`` draws small non-negative integers, which is what capture needs (values never enter a record).
"""

from __future__ import annotations

import torch

from workbench.programs.corpus import _p

I64 = "int64"
F32 = "float32"


def int_div_trunc(x, w):
    return torch.div(x, w.shape[0], rounding_mode="trunc")


def int_div_floor(x, w):
    return torch.div(x, w.shape[0], rounding_mode="floor")


def int_fmod(x, w):
    return torch.fmod(x, w.shape[0])


def int_remainder(x, w):
    return torch.remainder(x, w.shape[0])


def int_div_sum(x, w):
    return torch.div(x, w.shape[0], rounding_mode="trunc").sum(-1)


def int_gather_div(t, idx):
    return t[idx // 3]


_p("int_div_trunc", int_div_trunc, [(("n",), I64), (("m",), F32)], {"n": 37, "m": 11},
   "torch.div(x, size, rounding_mode='trunc') on int64 data: a payload // by a size argument.")
_p("int_div_floor", int_div_floor, [(("n",), I64), (("m",), F32)], {"n": 37, "m": 11},
   "torch.div(x, size, rounding_mode='floor') on int64 data (Inductor's div_floor_integer on data).")
_p("int_fmod", int_fmod, [(("n",), I64), (("m",), F32)], {"n": 37, "m": 11},
   "torch.fmod(x, size) on int64 data: a payload % by a size argument.")
_p("int_remainder", int_remainder, [(("n",), I64), (("m",), F32)], {"n": 37, "m": 11},
   "torch.remainder(x, size) on int64 data (Python-style remainder of data by a size).")
_p("int_div_sum", int_div_sum, [(("r", "c"), I64), (("m",), F32)], {"r": 5, "c": 13, "m": 11},
   "torch.div(x, size).sum(-1) on int64 data: a payload // inside a reduction.")
_p("int_gather_div", int_gather_div, [(("rows", "d"), F32), (("n",), I64)], {"rows": 9, "d": 6, "n": 7},
   "t[idx // 3]: an int64 index computed from data by a literal division (indirect indexing).")
