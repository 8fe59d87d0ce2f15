"""GELU, tanh approximation."""

import torch.nn.functional as F


def program(x):
    return F.gelu(x, approximate="tanh")
