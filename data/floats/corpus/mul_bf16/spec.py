import torch

DTYPE = torch.bfloat16


def program(a, b):
    return a * b
