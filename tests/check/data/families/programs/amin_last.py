import torch
def program(x):
    return torch.amin(x, dim=-1)
def example_inputs():
    return (torch.randn(7, 5),)
