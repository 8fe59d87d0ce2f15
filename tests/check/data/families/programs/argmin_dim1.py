import torch
def program(x):
    return torch.argmin(x, dim=1)
def example_inputs():
    return (torch.randn(3, 24, 5),)
def dynamic_dims():
    return ((0, 2),)
