import torch

DTYPE = torch.float16


def program(a, b):
    return a + b
