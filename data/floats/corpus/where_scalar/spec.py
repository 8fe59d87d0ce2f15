"""torch.where with a scalar branch (aten.where.ScalarOther)."""

import torch


def program(x):
    return torch.where(x > 0.5, x, 0.1)
