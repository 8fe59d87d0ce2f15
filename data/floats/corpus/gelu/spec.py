"""KernelBench level 1 GELU (erf form)."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x):
    return F.gelu(x)
