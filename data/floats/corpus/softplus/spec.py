"""KernelBench level 1 Softplus."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x):
    return F.softplus(x)
