"""torch.rsqrt: rsqrtf (approximate) on cuda, 1 / sqrt(x) on cpu."""

import torch


def program(x):
    return torch.rsqrt(x)
