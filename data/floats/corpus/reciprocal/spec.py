"""torch.reciprocal: 1 / x, one correctly rounded division on cpu and cuda."""

import torch


def program(x):
    return torch.reciprocal(x)
