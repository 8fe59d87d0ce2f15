"""Elementwise sum of two tensors."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x, y):
    return x + y
