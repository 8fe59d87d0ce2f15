import torch

DTYPE = torch.bfloat16


def program(x):
    return torch.nn.functional.leaky_relu(x, 0.01)
