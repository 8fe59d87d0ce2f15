"""x ** 3: ATen's pow with exponent 3 computes base * base * base."""

import torch


def program(x):
    return torch.pow(x, 3)
