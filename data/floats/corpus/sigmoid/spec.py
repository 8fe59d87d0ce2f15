"""KernelBench level 1 Sigmoid."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x):
    return torch.sigmoid(x)
