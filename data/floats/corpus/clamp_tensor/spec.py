"""clamp with tensor bounds (aten.clamp.Tensor)."""

import torch


def program(x, lo, hi):
    return torch.clamp(x, lo, hi)
