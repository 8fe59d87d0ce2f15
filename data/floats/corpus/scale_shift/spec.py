"""Scale and shift by constants (separately rounded multiply and add in PyTorch)."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x):
    return x * 0.1 + 0.5
