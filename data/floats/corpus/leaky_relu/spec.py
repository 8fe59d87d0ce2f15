"""KernelBench level 1 LeakyReLU with the default slope (0.01, omitted from the exported graph)."""

import torch
import torch.nn.functional as F  # noqa: F401


def program(x):
    return F.leaky_relu(x)
